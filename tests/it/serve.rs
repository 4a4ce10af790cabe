//! `rulesmith serve`'s HTTP API, through the router itself (tower's `oneshot`, no
//! network): a hot-seat game played to its end with the bots, undo, the record; every bad
//! request refused with a 4xx and a JSON message; seats by link see only their own view;
//! replays stepped as seats and as the observer.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use proptest::strategy::Strategy;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::game::ToMove;
use rulesmith::core::record::Record;
use rulesmith::core::sim::bot_rng;
use rulesmith_serve::{App, Options, Seating, TableSpec};
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

fn offered(name: &str) -> Arc<rulesmith_serve::Ruleset> {
    let r = rulesmith::load(name).unwrap();
    Arc::new(rulesmith_serve::Ruleset {
        name: r.name().to_string(),
        source: name.to_string(),
        overrides: Vec::new(),
        digest: r.digest(),
        rules: r.loaded.tree.to_json(),
        game: Box::leak(r.game),
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// The address the routers under test are told they are served at.
const SERVED: &str = "127.0.0.1:8163";

/// Sends one request to the app, as its own page does (addressed to [`SERVED`], a body as
/// JSON); the status and the body (JSON, or `{"text": …}`).
async fn send(app: &App, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Value) {
    let req = Request::builder().method(method).uri(uri).header("host", SERVED);
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b)),
        None => req.body(Body::empty()),
    }
    .unwrap();
    send_request(app, req).await
}

/// Sends a request built by the caller (its own headers); the status and the body.
async fn send_request(app: &App, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.router(SERVED.parse().unwrap()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (status, serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text })))
}

async fn get(app: &App, uri: &str) -> (StatusCode, Value) {
    send(app, "GET", uri, None).await
}

async fn post(app: &App, uri: &str, body: Value) -> (StatusCode, Value) {
    send(app, "POST", uri, Some(body.to_string())).await
}

/// The table's position once the bots have moved (they think off the request).
async fn settled(app: &App, uri: &str) -> Value {
    for _ in 0..2000 {
        let (status, s) = get(app, uri).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        if !s["thinking"].as_bool().unwrap() {
            return s;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("the bots did not finish moving");
}

fn refused(status: StatusCode, body: &Value, want: StatusCode, words: &str) {
    assert_eq!(status, want, "{body}");
    let msg = body["error"].as_str().unwrap_or_else(|| panic!("no JSON error message: {body}"));
    assert!(msg.contains(words), "`{msg}` does not say `{words}`");
}

#[test]
fn a_hot_seat_game_plays_to_its_end_and_bad_requests_are_refused() {
    let rs = offered("santiago-de-cuba");
    let seats = vec![None, Some(BotSpec::Greedy)];
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 5, seats)],
        rulesets: vec![rs],
        seating: Seating::HotSeat,
        ..Options::default()
    })
    .unwrap();
    runtime().block_on(async {
        // The bundled page and its assets.
        let (status, page) = get(&app, "/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(page["text"].as_str().unwrap().contains("/assets/app.js"));
        for asset in ["/assets/app.js", "/assets/boards.js", "/assets/app.css"] {
            assert_eq!(get(&app, asset).await.0, StatusCode::OK, "{asset}");
        }
        let (_, list) = get(&app, "/api/tables").await;
        assert_eq!(list["tables"][0]["ruleset"], "santiago-de-cuba");
        let (_, rules) = get(&app, "/api/table/0/rules").await;
        assert_eq!(rules["ruleset"]["game"], "santiago-de-cuba");

        let s = settled(&app, "/api/table/0").await;
        let first = s["move"].as_u64().unwrap() as usize;
        assert_eq!(s["acts"], true, "{s}");
        assert_eq!(s["undo"], false, "no undo offered before the person's first decision");
        assert_eq!(s["people"], json!([0]));
        let legal: Vec<String> =
            s["legal"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap().to_string()).collect();

        // Bad requests: each a 4xx with a message, the game untouched.
        let (st, b) = post(&app, "/api/table/0/act", json!({"move": first, "action": "fly to the moon"})).await;
        refused(st, &b, StatusCode::UNPROCESSABLE_ENTITY, "fly to the moon");
        let (st, b) = post(&app, "/api/table/0/act", json!({"move": first + 3, "action": legal[0]})).await;
        refused(st, &b, StatusCode::CONFLICT, "stale");
        let (st, b) = send(&app, "POST", "/api/table/0/act", Some("{not json".into())).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "request body");
        let (st, b) = post(&app, "/api/table/0/act", json!({"move": first, "action": legal[0], "extra": 1})).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "unknown field");
        let big = json!({"move": first, "action": "x".repeat(40_000)}).to_string();
        let (st, b) = send(&app, "POST", "/api/table/0/act", Some(big)).await;
        refused(st, &b, StatusCode::PAYLOAD_TOO_LARGE, "request body");
        let (st, b) = post(&app, "/api/table/7/act", json!({"move": 0, "action": "x"})).await;
        refused(st, &b, StatusCode::NOT_FOUND, "no table 7");
        let (st, b) = get(&app, "/api/table/zero").await;
        refused(st, &b, StatusCode::NOT_FOUND, "not a number");
        let (st, b) = get(&app, "/api/nothing").await;
        refused(st, &b, StatusCode::NOT_FOUND, "no such page");
        let (st, b) = send(&app, "DELETE", "/api/table/0", None).await;
        refused(st, &b, StatusCode::METHOD_NOT_ALLOWED, "method");
        let (st, b) = post(&app, "/api/table/0/undo", json!({"move": first})).await;
        refused(st, &b, StatusCode::CONFLICT, "nothing to undo");
        assert_eq!(settled(&app, "/api/table/0").await["move"], first);

        // A decision, then undo back to it.
        let (st, b) = post(&app, "/api/table/0/act", json!({"move": first, "action": legal[0]})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        let s = settled(&app, "/api/table/0").await;
        assert!(s["move"].as_u64().unwrap() as usize > first);
        let (st, b) = post(&app, "/api/table/0/undo", json!({"move": s["move"]})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        assert_eq!(b["move"], first);

        // The person always takes the first action; the bot answers; to the end.
        let mut s = settled(&app, "/api/table/0").await;
        let mut decisions = 0;
        while s["outcome"].is_null() {
            assert!(s["error"].is_null(), "{s}");
            let action = s["legal"][0]["action"].clone();
            let (st, b) = post(&app, "/api/table/0/act", json!({"move": s["move"], "action": action})).await;
            assert_eq!(st, StatusCode::OK, "{b}");
            s = settled(&app, "/api/table/0").await;
            decisions += 1;
            assert!(decisions < 2000, "the game does not end");
        }
        assert_eq!(s["outcome"]["scores"].as_array().unwrap().len(), 2);
        let (st, b) = post(&app, "/api/table/0/act", json!({"move": s["move"], "action": "pass"})).await;
        refused(st, &b, StatusCode::CONFLICT, "over");

        // The record, in `play`'s format, replays to the same result.
        let (st, rec) = get(&app, "/api/table/0/record").await;
        assert_eq!(st, StatusCode::OK);
        let rec: Record = serde_json::from_value(rec).unwrap();
        assert_eq!(rec.bots, ["human", "greedy"]);
        assert_eq!(
            rec.result.as_ref().map(|o| o.scores.clone()),
            Some(serde_json::from_value(s["outcome"]["scores"].clone()).unwrap())
        );
        let r = rulesmith::load("santiago-de-cuba").unwrap();
        let mut replayed = r.game.start(2, 5).unwrap();
        for a in &rec.actions {
            replayed.play(a).unwrap();
        }
        assert_eq!(replayed.outcome(), rec.result);
    });
}

#[test]
fn a_seat_by_link_sees_only_its_own_view() {
    let rs = offered("santiago-de-cuba");
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 3, 9, vec![None, None, Some(BotSpec::Random)])],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    let links = app.links();
    let token = |seat: usize| {
        let l = links.iter().find(|l| l.label.ends_with(&format!("seat {seat}"))).unwrap();
        l.path.split("token=").nth(1).unwrap().to_string()
    };
    assert!(links.iter().all(|l| !l.label.ends_with("seat 2")), "a bot's seat has no link: {links:?}");
    let (t0, t1) = (token(0), token(1));
    assert_eq!(t0.len(), 32);
    assert_ne!(t0, t1);
    runtime().block_on(async {
        let (st, b) = get(&app, "/api/table/0").await;
        refused(st, &b, StatusCode::FORBIDDEN, "by link");
        let (st, b) = get(&app, &format!("/api/table/0?seat=0&token={t1}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "wrong seat or token");
        let (st, b) = get(&app, &format!("/api/table/0?seat=2&token={t1}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "seat 2");
        let (st, b) = get(&app, &format!("/api/table/0?seat=9&token={t1}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "seat 9");

        let s0 = settled(&app, &format!("/api/table/0?seat=0&token={t0}")).await;
        let s1 = settled(&app, &format!("/api/table/0?seat=1&token={t1}")).await;
        // Each page carries exactly its seat's view, as `rulesmith state --seat` prints it.
        let r = rulesmith::load("santiago-de-cuba").unwrap();
        let mut game = r.game.start(3, 9).unwrap();
        for entry in s0["log"].as_array().unwrap() {
            game.play(entry[1].as_str().unwrap()).unwrap();
        }
        assert_eq!(s0["view"], game.view_json(0));
        assert_eq!(s1["view"], game.view_json(1));
        assert_eq!(s0["move"], s1["move"]);
        for (s, seat, other) in [(&s0, 0usize, 1usize), (&s1, 1, 0)] {
            assert_eq!(s["seat"], seat);
            let them = &s["view"]["players"][other];
            for key in ["goods", "pesos", "vp"] {
                assert_eq!(them[key], "hidden", "seat {seat} sees seat {other}'s {key}");
            }
            assert_ne!(s["view"]["players"][seat]["pesos"], "hidden");
            assert!(s["view"].get("rng").is_none());
        }
        // Acting for a seat not to move, and the record before the end, are refused.
        let to_move = s0["to_move"].as_u64().unwrap() as usize;
        let (idle, idle_token) = if to_move == 0 { (1, &t1) } else { (0, &t0) };
        let (st, b) = post(
            &app,
            "/api/table/0/act",
            json!({"move": s0["move"], "action": "skip", "seat": idle.to_string(), "token": idle_token}),
        )
        .await;
        refused(st, &b, StatusCode::FORBIDDEN, "not seat");
        let (st, b) = get(&app, &format!("/api/table/0/record?seat=0&token={t0}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "once the game is over");
        let (st, b) = post(&app, "/api/table/0/undo", json!({"move": s0["move"]})).await;
        refused(st, &b, StatusCode::FORBIDDEN, "by link");
    });
}

/// A game between bots, as a record.
fn bot_record(name: &str, players: usize, seed: u64) -> Record {
    let r = rulesmith::load(name).unwrap();
    let mut s = r.game.start(players, seed).unwrap();
    let mut rng = bot_rng(seed);
    while let ToMove::Seat(_) = s.to_move() {
        let a = s.bots().unwrap().bot_choice(BotSpec::Random, &mut rng).unwrap();
        s.play(&a).unwrap();
    }
    Record {
        ruleset: r.name().to_string(),
        source: name.to_string(),
        overrides: Vec::new(),
        digest: r.digest(),
        game: r.game.game_id().to_string(),
        players,
        seed,
        index: None,
        run_seed: None,
        rotation: None,
        bots: vec!["random".into(); players],
        actions: s.history().to_vec(),
        rounds: s.progress().rounds,
        result: s.outcome(),
    }
}

#[test]
fn replays_step_as_any_seat_or_the_observer() {
    let pr = offered("puerto-rico");
    let sc = offered("santiago-de-cuba");
    let rec = bot_record("puerto-rico", 3, 4);
    let steps = rec.actions.len();
    let app = App::new(Options {
        tables: vec![],
        replays: vec![(Arc::clone(&pr), rec.clone())],
        rulesets: vec![pr, sc],
        seating: Seating::HotSeat,
        ..Options::default()
    })
    .unwrap();
    let r = rulesmith::load("puerto-rico").unwrap();
    runtime().block_on(async {
        let (st, at) = get(&app, "/api/replay/0?step=10&seat=1").await;
        assert_eq!(st, StatusCode::OK, "{at}");
        let mut s = r.game.start(3, 4).unwrap();
        for a in &rec.actions[..10] {
            s.play(a).unwrap();
        }
        assert_eq!(at["view"], s.view_json(1));
        assert_eq!(at["steps"], steps);
        // Back, then the observer's whole state.
        let (_, at) = get(&app, "/api/replay/0?step=3&seat=observer").await;
        let mut s = r.game.start(3, 4).unwrap();
        for a in &rec.actions[..3] {
            s.play(a).unwrap();
        }
        assert_eq!(at["view"], s.state_json());
        let (_, end) = get(&app, &format!("/api/replay/0?step={steps}")).await;
        assert_eq!(
            serde_json::from_value::<Option<rulesmith::core::game::Outcome>>(end["outcome"].clone()).unwrap(),
            rec.result
        );

        let (st, b) = get(&app, &format!("/api/replay/0?step={}", steps + 1)).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "decisions");
        let (st, b) = get(&app, "/api/replay/0?seat=3").await;
        refused(st, &b, StatusCode::BAD_REQUEST, "seat 3");
        let (st, b) = get(&app, "/api/replay/5").await;
        refused(st, &b, StatusCode::NOT_FOUND, "no replay 5");

        // A record sent from the page: matched to a served ruleset by digest.
        let other = bot_record("santiago-de-cuba", 2, 1);
        let (st, b) = post(&app, "/api/replays", json!({"record": other.to_line()})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        let id = b["replay"].as_u64().unwrap();
        let (st, _) = get(&app, &format!("/api/replay/{id}?step=5&seat=0")).await;
        assert_eq!(st, StatusCode::OK);
        let mut foreign = other.clone();
        foreign.digest = "0".repeat(16);
        let (st, b) = post(&app, "/api/replays", json!({"record": foreign.to_line()})).await;
        refused(st, &b, StatusCode::UNPROCESSABLE_ENTITY, "not one this server plays");
        let mut wrong = other.clone();
        wrong.actions.insert(3, "fly".into());
        let (st, b) = post(&app, "/api/replays", json!({"record": wrong.to_line()})).await;
        refused(st, &b, StatusCode::UNPROCESSABLE_ENTITY, "action 4");
        let two = format!("{}\n{}\n", other.to_line(), other.to_line());
        let (st, b) = post(&app, "/api/replays", json!({ "record": two })).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "more than one game");
        let (st, b) = post(&app, "/api/replays", json!({"record": "{}"})).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "the record");
    });
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Whatever a request holds, the answer is a page, a position or a 4xx with a message:
    /// never a server error, and the game stays playable.
    #[test]
    fn no_request_makes_a_server_error(
        route in proptest::sample::select(vec!["act", "undo", "record", "rules", "", "x"]),
        table in "[0-9a-z%]{0,3}",
        query in "[a-z0-9=&%]{0,24}",
        body in proptest::option::of(proptest::prelude::any::<String>()),
        json_body in proptest::option::of(("[0-9]{0,4}", "[a-z 0-9-]{0,20}")),
    ) {
        thread_local! {
            static APP: App = {
                let rs = offered("puerto-rico");
                App::new(Options {
                    tables: vec![TableSpec::new(Arc::clone(&rs), 2, 3, vec![None, Some(BotSpec::Random)])],
                    rulesets: vec![rs],
                    seating: Seating::HotSeat,
                    ..Options::default()
                })
                .unwrap()
            };
        }
        let uri = format!("/api/table/{table}/{route}?{query}");
        let body = match (body, json_body) {
            (_, Some((n, a))) => Some(format!("{{\"move\": {}, \"action\": \"{a}\"}}", if n.is_empty() { "0" } else { &n })),
            (b, None) => b,
        };
        let (status, reply) = APP.with(|app| {
            runtime().block_on(send(app, if body.is_some() { "POST" } else { "GET" }, &uri, body))
        });
        proptest::prop_assert!(status.is_success() || status.is_client_error(), "{uri}: {status} {reply}");
        if status.is_client_error() {
            proptest::prop_assert!(reply["error"].is_string(), "{uri}: {status} without a message: {reply}");
        }
    }
}

/// A hot-seat table of two people (no bots: only requests move it) of Puerto Rico.
fn people_only(hosts: Vec<String>) -> App {
    let rs = offered("puerto-rico");
    App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 3, vec![None, None])],
        rulesets: vec![rs],
        seating: Seating::HotSeat,
        hosts,
        ..Options::default()
    })
    .unwrap()
}

/// A request with the given headers (`None`: left out).
fn request(method: &str, uri: &str, headers: &[(&str, Option<&str>)], body: Option<String>) -> Request<Body> {
    try_request(method, uri, headers, body).unwrap()
}

/// A request with the given headers, if http can build it (a path or a header value it
/// refuses cannot be sent at all).
fn try_request(
    method: &str,
    uri: &str,
    headers: &[(&str, Option<&str>)],
    body: Option<String>,
) -> Result<Request<Body>, axum::http::Error> {
    let mut req = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        if let Some(v) = value {
            req = req.header(*name, *v);
        }
    }
    req.body(body.map_or_else(Body::empty, Body::from))
}

/// Issue #42: another site's page may neither act at a table (a `text/plain` POST, a
/// foreign Origin) nor read one through a name it points at this machine (a foreign Host).
#[test]
fn another_sites_page_can_neither_act_nor_read() {
    let app = people_only(vec!["table.lan".into()]);
    runtime().block_on(async {
        let (_, s) = get(&app, "/api/table/0").await;
        let act = json!({"move": s["move"], "action": s["legal"][0]["action"]}).to_string();
        let json_type = ("content-type", Some("application/json"));
        let host = ("host", Some(SERVED));

        // A cross-site form or `fetch` without preflight: text/plain.
        let (st, b) = send_request(
            &app,
            request("POST", "/api/table/0/act", &[host, ("content-type", Some("text/plain"))], Some(act.clone())),
        )
        .await;
        refused(st, &b, StatusCode::UNSUPPORTED_MEDIA_TYPE, "JSON");
        let (st, b) = send_request(&app, request("POST", "/api/table/0/act", &[host], Some(act.clone()))).await;
        refused(st, &b, StatusCode::UNSUPPORTED_MEDIA_TYPE, "JSON");
        // Another site's Origin, a `null` one, another port of this machine.
        for origin in ["http://evil.example", "null", "http://127.0.0.1:3000", "http://192.168.1.9:8163"] {
            let headers = [host, json_type, ("origin", Some(origin))];
            let (st, b) = send_request(&app, request("POST", "/api/table/0/act", &headers, Some(act.clone()))).await;
            refused(st, &b, StatusCode::FORBIDDEN, "Origin");
            let (st, b) = send_request(&app, request("POST", "/api/table/0/undo", &headers, Some("{}".into()))).await;
            refused(st, &b, StatusCode::FORBIDDEN, "Origin");
            let (st, b) = send_request(&app, request("GET", "/api/table/0", &headers, None)).await;
            refused(st, &b, StatusCode::FORBIDDEN, "Origin");
        }
        // DNS rebinding: the request reaches this machine under another site's name.
        for name in ["evil.example:8163", "evil.example", "localhost.evil.example:8163", "127.0.0.1.nip.io:8163"] {
            for uri in ["/api/table/0", "/api/table/0/record", "/api/tables", "/"] {
                let (st, b) = send_request(&app, request("GET", uri, &[("host", Some(name))], None)).await;
                refused(st, &b, StatusCode::FORBIDDEN, "not this server's address");
            }
            let headers = [("host", Some(name)), json_type];
            let (st, b) = send_request(&app, request("POST", "/api/table/0/act", &headers, Some(act.clone()))).await;
            refused(st, &b, StatusCode::FORBIDDEN, "not this server's address");
        }
        let (st, b) = send_request(&app, request("GET", "/api/table/0", &[], None)).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "Host");
        // A browser's cross-site GET (no Origin sent) says so in Sec-Fetch-Site.
        let headers = [host, ("sec-fetch-site", Some("cross-site"))];
        let (st, b) = send_request(&app, request("GET", "/api/table/0/record", &headers, None)).await;
        refused(st, &b, StatusCode::FORBIDDEN, "another site");
        assert_eq!(get(&app, "/api/table/0").await.1["move"], s["move"], "a refused request moved the game");

        // The page itself (same origin), a program such as curl (no Origin), localhost, and
        // a name the operator allowed are answered.
        for (host, origin) in [
            (SERVED, Some("http://127.0.0.1:8163")),
            ("localhost:8163", Some("http://localhost:8163")),
            ("table.lan", Some("https://table.lan")),
            ("127.0.0.1:8163", Some("https://table.lan")),
            ("table.lan:8163", None),
        ] {
            let headers = [("host", Some(host)), ("origin", origin), ("sec-fetch-site", Some("same-origin"))];
            let (st, b) = send_request(&app, request("GET", "/api/table/0", &headers, None)).await;
            assert_eq!(st, StatusCode::OK, "{host} {origin:?}: {b}");
        }
        let headers = [
            host,
            ("content-type", Some("application/json; charset=utf-8")),
            ("origin", Some("http://127.0.0.1:8163")),
        ];
        let (st, b) = send_request(&app, request("POST", "/api/table/0/act", &headers, Some(act))).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        assert_ne!(b["move"], s["move"]);
    });
}

/// Issue #42: the seed and the public log of a table by links in play must not be
/// replayed (the observer's view would show every hidden holding), sent from a page or
/// given with `--replay`.
#[test]
fn a_record_of_a_table_by_links_in_play_is_not_replayed() {
    let rs = offered("santiago-de-cuba");
    let leak = bot_record("santiago-de-cuba", 2, 9);
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, None])],
        rulesets: vec![Arc::clone(&rs)],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    runtime().block_on(async {
        let (st, b) = post(&app, "/api/replays", json!({"record": leak.to_line()})).await;
        refused(st, &b, StatusCode::FORBIDDEN, "still in play");
        // The same seed with another player count may deal the same face-down order.
        let (st, b) =
            post(&app, "/api/replays", json!({"record": bot_record("santiago-de-cuba", 3, 9).to_line()})).await;
        refused(st, &b, StatusCode::FORBIDDEN, "still in play");
        // Another seed is replayed.
        let other = bot_record("santiago-de-cuba", 2, 10);
        let (st, b) = post(&app, "/api/replays", json!({"record": other.to_line()})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
    });
    let given = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, None])],
        replays: vec![(Arc::clone(&rs), leak)],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    });
    let message = given.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("every hidden holding"), "`{message}`");

    // A finished table's record is not given while another table by links dealt from the
    // same seed is in play.
    for (other_seed, want) in [(9, StatusCode::FORBIDDEN), (10, StatusCode::OK)] {
        let rs = offered("santiago-de-cuba");
        let mut over = TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)]);
        over.resume = Some(bot_record("santiago-de-cuba", 2, 9));
        let app = App::new(Options {
            tables: vec![over, TableSpec::new(Arc::clone(&rs), 2, other_seed, vec![None, None])],
            rulesets: vec![rs],
            seating: Seating::Links,
            ..Options::default()
        })
        .unwrap();
        let link = app.links().into_iter().find(|l| l.label.ends_with("seat 0")).unwrap();
        let query = link.path.split('?').nth(1).unwrap().replace("table=0&", "");
        runtime().block_on(async {
            let (st, b) = get(&app, &format!("/api/table/0/record?{query}")).await;
            assert_eq!(st, want, "table 1 dealt from seed {other_seed}: {b}");
            if want == StatusCode::FORBIDDEN {
                refused(st, &b, want, "table 1 is over too");
            }
        });
    }
}

/// Issue #42: records sent from pages are kept within a count and a byte budget (the
/// oldest sent goes), never as the text they came in, and a seat name of megabytes is
/// refused; the operator's `--replay` records stay.
#[test]
fn records_sent_to_replay_are_bounded() {
    let sc = offered("santiago-de-cuba");
    let limits = rulesmith_serve::Limits {
        replays: rulesmith_serve::ReplayLimits { uploads: 3, upload_bytes: 4 << 20 },
        ..Default::default()
    };
    let app = App::new(Options {
        replays: vec![(Arc::clone(&sc), bot_record("santiago-de-cuba", 2, 1))],
        rulesets: vec![Arc::clone(&sc)],
        limits,
        ..Options::default()
    })
    .unwrap();
    runtime().block_on(async {
        let mut ids = Vec::new();
        for seed in 2..8 {
            let (st, b) =
                post(&app, "/api/replays", json!({"record": bot_record("santiago-de-cuba", 2, seed).to_line()})).await;
            assert_eq!(st, StatusCode::OK, "{b}");
            ids.push(b["replay"].as_u64().unwrap());
        }
        let (_, list) = get(&app, "/api/tables").await;
        let listed: Vec<u64> = list["replays"].as_array().unwrap().iter().map(|r| r["id"].as_u64().unwrap()).collect();
        assert_eq!(listed, [0, ids[3], ids[4], ids[5]], "the operator's record and the 3 latest sent");
        let (st, b) = get(&app, &format!("/api/replay/{}", ids[0])).await;
        refused(st, &b, StatusCode::NOT_FOUND, "no replay");
        assert!(app.uploaded_replay_bytes() <= 4 << 20);

        // Megabytes in a seat's name: refused, not kept.
        let mut stuffed = bot_record("santiago-de-cuba", 2, 11);
        stuffed.bots[1] = "x".repeat(2 << 20);
        let (st, b) = post(&app, "/api/replays", json!({"record": stuffed.to_line()})).await;
        refused(st, &b, StatusCode::UNPROCESSABLE_ENTITY, "longer than");
    });
    // A record larger than the whole budget is refused with the budget named.
    let tight = App::new(Options {
        rulesets: vec![Arc::clone(&sc)],
        limits: rulesmith_serve::Limits {
            replays: rulesmith_serve::ReplayLimits { uploads: 3, upload_bytes: 1024 },
            ..Default::default()
        },
        ..Options::default()
    })
    .unwrap();
    runtime().block_on(async {
        let (st, b) =
            post(&tight, "/api/replays", json!({"record": bot_record("santiago-de-cuba", 2, 1).to_line()})).await;
        refused(st, &b, StatusCode::PAYLOAD_TOO_LARGE, "1 KiB");
    });
}

/// Serves `app` for real (a thread of its own, for the rest of the test run) within
/// `limits`; its address.
fn listening(limits: rulesmith_serve::Limits) -> std::net::SocketAddr {
    let rs = offered("santiago-de-cuba");
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 1, vec![None, None])],
        rulesets: vec![rs],
        limits,
        ..Options::default()
    })
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        rulesmith_serve::run(app, "127.0.0.1:0".parse().unwrap(), |addr, _| tx.send(addr).unwrap()).unwrap();
    });
    rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap()
}

/// One whole request on a new connection; the answer's status line, or the error.
fn plain_get(addr: std::net::SocketAddr, wait: std::time::Duration) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr)?;
    c.set_read_timeout(Some(wait))?;
    write!(c, "GET /api/tables HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
    let mut text = String::new();
    c.read_to_string(&mut text)?;
    Ok(text.lines().next().unwrap_or_default().to_string())
}

/// Issue #42: a request head never finished is dropped after the header-read timeout, and
/// connections past the cap wait without starving the next person once they go.
#[test]
fn idle_connections_are_dropped_and_capped() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let quick = Duration::from_millis(300);
    let addr = listening(rulesmith_serve::Limits { header_read: quick, connections: 4, ..Default::default() });
    // An unfinished head: the server closes the connection after the timeout.
    let mut slow = std::net::TcpStream::connect(addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    slow.write_all(format!("GET /api/tables HTTP/1.1\r\nHost: {addr}\r\n").as_bytes()).unwrap();
    let start = Instant::now();
    let mut rest = Vec::new();
    slow.read_to_end(&mut rest).expect("the server kept an unfinished request open");
    assert!(start.elapsed() < Duration::from_secs(5), "closed after {:?}", start.elapsed());
    // 20 connections that send nothing, five times the cap: a request after them is
    // answered once the idle ones have timed out.
    let idle: Vec<_> = (0..20).map(|_| std::net::TcpStream::connect(addr).unwrap()).collect();
    let start = Instant::now();
    let answer = plain_get(addr, Duration::from_secs(20)).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "`{answer}`");
    assert!(start.elapsed() < Duration::from_secs(10), "answered after {:?}", start.elapsed());
    drop(idle);

    // The cap itself: with two slots held by idle connections, a third waits until one goes.
    let addr = listening(rulesmith_serve::Limits {
        header_read: Duration::from_secs(60),
        connections: 2,
        ..Default::default()
    });
    let mut idle: Vec<_> = (0..2).map(|_| std::net::TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    assert!(plain_get(addr, Duration::from_millis(700)).is_err(), "a connection past the cap was served");
    idle.pop();
    let answer = plain_get(addr, Duration::from_secs(10)).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "`{answer}`");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// Issue #42: any method, route, Host, Origin, Sec-Fetch-Site, Content-Type and body:
    /// never a server error, a refusal always says why, and a request that is not the
    /// server's own page's (a foreign Host, Origin or site) neither reads nor moves a table.
    #[test]
    fn hostile_requests_never_succeed_from_elsewhere(
        method in proptest::sample::select(vec!["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]),
        path in proptest::prop_oneof![
            proptest::sample::select(vec![
                "/", "/assets/app.js", "/api/tables", "/api/table/0", "/api/table/0/act", "/api/table/0/undo",
                "/api/table/0/record", "/api/table/0/rules", "/api/replays", "/api/replay/0", "/api/replay/0/rules",
            ]).prop_map(String::from),
            "/[a-z0-9/%?=&.]{0,24}",
        ],
        host in proptest::option::of(proptest::prop_oneof![
            proptest::sample::select(vec![SERVED, "localhost:8163", "[::1]:8163", "evil.example:8163", "evil.example", "127.0.0.1:80", "table.lan"]).prop_map(String::from),
            "[ -~]{0,24}",
        ]),
        origin in proptest::option::of(proptest::prop_oneof![
            proptest::sample::select(vec!["http://127.0.0.1:8163", "http://localhost:8163", "http://evil.example", "null", "https://table.lan", "http://127.0.0.1:9"]).prop_map(String::from),
            "[ -~]{0,24}",
        ]),
        site in proptest::option::of(proptest::sample::select(vec!["same-origin", "same-site", "cross-site", "none", "weird"])),
        content_type in proptest::option::of(proptest::prop_oneof![
            proptest::sample::select(vec!["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "APPLICATION/JSON; charset=utf-8"]).prop_map(String::from),
            "[ -~]{0,24}",
        ]),
        body in proptest::prop_oneof![
            proptest::strategy::Just(None),
            proptest::strategy::Just(Some("act".to_string())),
            proptest::strategy::Just(Some("undo".to_string())),
            proptest::option::of(proptest::prelude::any::<String>()),
        ],
    ) {
        thread_local! {
            static APP: App = people_only(vec!["table.lan".into()]);
        }
        let foreign = host.as_deref().is_none_or(|h| !served_as(h))
            || origin.as_deref().is_some_and(|o| !(host.as_deref().is_some_and(|h| o.eq_ignore_ascii_case(&format!("http://{h}")) || o.eq_ignore_ascii_case(&format!("https://{h}"))) || o.eq_ignore_ascii_case("https://table.lan") || o.eq_ignore_ascii_case("http://table.lan")))
            || (path.starts_with("/api/") && site.is_some_and(|s| s != "same-origin" && s != "none"));
        let (status, reply, before, after) = APP.with(|app| {
            runtime().block_on(async {
                let (_, s) = get(app, "/api/table/0").await;
                let body = match body.as_deref() {
                    Some("act") => Some(json!({"move": s["move"], "action": s["legal"][0]["action"]}).to_string()),
                    Some("undo") => Some(json!({"move": s["move"]}).to_string()),
                    _ => body.clone(),
                };
                let headers = [
                    ("host", host.as_deref()),
                    ("origin", origin.as_deref()),
                    ("sec-fetch-site", site),
                    ("content-type", content_type.as_deref()),
                ];
                let Ok(req) = try_request(method, &path, &headers, body.clone()) else {
                    // Not a request http can build (a header value it refuses): nothing sent.
                    return (StatusCode::BAD_REQUEST, json!({"error": "unsendable"}), s.clone(), s);
                };
                let (status, reply) = send_request(app, req).await;
                let (_, after) = get(app, "/api/table/0").await;
                (status, reply, s, after)
            })
        });
        proptest::prop_assert!(!status.is_server_error(), "{method} {path}: {status} {reply}");
        if status.is_client_error() && method != "HEAD" {
            proptest::prop_assert!(reply["error"].is_string(), "{method} {path}: {status} without a message: {reply}");
        }
        if foreign {
            proptest::prop_assert!(status.is_client_error(), "{method} {path} host {host:?} origin {origin:?} site {site:?}: {status} {reply}");
            proptest::prop_assert_eq!(&before["move"], &after["move"], "a foreign request moved the game");
        }
    }
}

/// What the server takes as its own name at [`SERVED`] with `table.lan` allowed (as
/// `Guard::allows` decides, written out again independently).
fn served_as(host: &str) -> bool {
    let h = host.to_ascii_lowercase();
    ["127.0.0.1:8163", "localhost:8163", "[::1]:8163", "table.lan", "table.lan:8163"].contains(&h.as_str())
        || h.strip_suffix(":8163").is_some_and(|ip| {
            ip.parse::<std::net::Ipv4Addr>().is_ok()
                || ip
                    .strip_prefix('[')
                    .and_then(|v| v.strip_suffix(']'))
                    .is_some_and(|v| v.parse::<std::net::Ipv6Addr>().is_ok())
        })
}

/// `rulesmith serve --port 0 ARGS…` started and listening (its first line read).
fn serving(args: &[&str]) -> std::process::Child {
    serving_at(args).0
}

/// `rulesmith serve --port 0 ARGS…` started, and the address its first line names.
fn serving_at(args: &[&str]) -> (std::process::Child, std::net::SocketAddr) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
    assert!(line.starts_with("rulesmith serve: listening"), "`{line}`");
    let base = line.split_whitespace().nth(4).unwrap().trim_end_matches('/');
    (child, base.trim_start_matches("http://").parse().unwrap())
}

/// Issue #42: a table by links deals from a seed drawn from the operating system, not seed
/// 1 (which, with the public move log, would show every hidden holding); a seed given
/// with `--seed` is used, with a warning to keep it secret.
#[test]
fn a_table_by_links_deals_from_a_secret_seed() {
    let dir = tempfile::tempdir().unwrap();
    let seed_of = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let path_text = path.to_str().unwrap().to_string();
        let mut args =
            vec!["santiago-de-cuba", "--players", "2", "--human", "0", "1", "--seats", "links", "--record", &path_text];
        args.extend_from_slice(extra);
        let mut child = serving(&args);
        let rec: Record = serde_json::from_str(std::fs::read_to_string(&path).unwrap().trim()).unwrap();
        child.kill().unwrap();
        let out = child.wait_with_output().unwrap();
        (rec.seed, String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (a, quiet) = seed_of("a.json", &[]);
    let (b, _) = seed_of("b.json", &[]);
    assert_ne!(a, 1, "a table by links dealt from the default seed");
    assert_ne!(a, b, "two tables by links dealt from the same seed");
    assert!(!quiet.contains("warning"), "{quiet}");
    let (c, warned) = seed_of("c.json", &["--seed", "5"]);
    assert_eq!(c, 5);
    assert!(warned.contains("warning: --seed 5") && warned.contains("every hidden holding"), "{warned}");
}

/// Issue #42 (9): `serve A B --set …` names the ruleset that refuses the edit.
#[test]
fn a_set_refused_by_one_of_the_rulesets_names_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
        .args(["serve", "puerto-rico", "santiago-de-cuba", "--port", "0", "--set", "buildings.harbor.cost=6"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("ruleset `santiago-de-cuba`"), "{stderr}");
}

/// Every game has its board module, served where the page loads it by the game's id
/// (`/assets/boards/<game>.js`), registering itself under that id; an unknown one is a 404
/// with a message.
#[test]
fn every_game_has_its_board_module() {
    let app = App::new(Options::default()).unwrap();
    runtime().block_on(async {
        for game in rulesmith::GAMES.iter().map(|g| g.id) {
            let (status, body) = get(&app, &format!("/assets/boards/{game}.js")).await;
            assert_eq!(status, StatusCode::OK, "{game}: {body}");
            let text = body["text"].as_str().unwrap();
            assert!(text.contains(&format!("Boards.register(\"{game}\"")), "{game}'s module registers another id");
        }
        let (status, body) = get(&app, "/assets/boards/no-such-game.js").await;
        refused(status, &body, StatusCode::NOT_FOUND, "no-such-game.js");
    });
}
/// The query of the link whose label ends with `suffix` (`seat 0`, `player)` for the
/// observer), without its table.
fn link_query(app: &App, suffix: &str) -> String {
    let link = app.links().into_iter().find(|l| l.label.ends_with(suffix)).unwrap();
    let q = link.path.split('?').nth(1).unwrap();
    q.split('&').filter(|p| !p.starts_with("table=")).collect::<Vec<_>>().join("&")
}

/// `{"seat": …, "token": …}` of a link's query, for a POST body.
fn credentials(query: &str) -> (String, String) {
    let get = |k: &str| query.split('&').find_map(|p| p.strip_prefix(&format!("{k}="))).unwrap().to_string();
    (get("seat"), get("token"))
}

/// The whole state a fresh game of `name` reaches after `actions`, but its generator.
fn whole_after(name: &str, players: usize, seed: u64, actions: &[Value]) -> Value {
    let r = rulesmith::load(name).unwrap();
    let mut g = r.game.start(players, seed).unwrap();
    for a in actions {
        g.play(a.as_str().unwrap()).unwrap();
    }
    let mut v = g.state_json();
    v.as_object_mut().unwrap().remove("rng");
    v
}

/// Issue #50: the observer's link at a table by links shows the whole game as it goes
/// (but not the generator: the draws to come are no one's), and every route that acts
/// refuses it.
#[test]
fn an_observer_link_watches_the_whole_game_and_never_acts() {
    let rs = offered("santiago-de-cuba");
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 3, 9, vec![None, Some(BotSpec::Random), None])],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    let watch = link_query(&app, "player)");
    assert!(watch.starts_with("seat=observer&token="), "{watch}");
    let (_, token) = credentials(&watch);
    let (_, seat0) = credentials(&link_query(&app, "seat 0"));
    assert_eq!(token.len(), 32);
    assert_ne!(token, seat0);
    runtime().block_on(async {
        let s = settled(&app, &format!("/api/table/0?{watch}")).await;
        assert_eq!(s["observer"], true);
        assert_eq!(s["acts"], false);
        assert!(s["legal"].as_array().unwrap().is_empty());
        assert_eq!(
            s["view"],
            whole_after(
                "santiago-de-cuba",
                3,
                9,
                s["log"].as_array().unwrap().iter().map(|e| &e[1]).cloned().collect::<Vec<_>>().as_slice()
            )
        );
        assert!(s["view"]["players"][1]["pesos"].is_number(), "the observer sees every holding");
        assert!(s["view"].get("rng").is_none());
        // A wrong token, or a seat's token as the observer's, opens nothing.
        let (st, b) = get(&app, &format!("/api/table/0?seat=observer&token={seat0}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "observer");
        // Every route that acts refuses the observer.
        let m = s["move"].clone();
        let body = |extra: Value| {
            let mut b = json!({"move": m, "seat": "observer", "token": token});
            for (k, v) in extra.as_object().unwrap() {
                b[k] = v.clone();
            }
            b
        };
        let to_move = s["to_move"].as_u64().unwrap() as usize;
        let seat_page = settled(&app, &format!("/api/table/0?{}", link_query(&app, &format!("seat {to_move}")))).await;
        let action = seat_page["legal"][0]["action"].clone();
        for (route, extra) in [("act", json!({"action": action})), ("undo", json!({})), ("next", json!({}))] {
            let (st, b) = post(&app, &format!("/api/table/0/{route}"), body(extra)).await;
            refused(st, &b, StatusCode::FORBIDDEN, "watches only");
        }
        let (st, b) = get(&app, &format!("/api/table/0/hint?{watch}&move={m}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "watches only");
        assert_eq!(settled(&app, &format!("/api/table/0?{watch}")).await["move"], m, "nothing moved");
        // Nor is the record (with the seed) given before the end.
        let (st, b) = get(&app, &format!("/api/table/0/record?{watch}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "once the game is over");
    });
}

/// Issue #50: a seat steps back through the game in play as it saw it then, computed on
/// the server from its view at that step — a twin position that differs only in what the
/// seat cannot see (other players' pesos and points, the generator) gives the same past
/// view — and never a step not yet played.
#[test]
fn a_seat_reviews_the_past_as_it_saw_it() {
    let rs = offered("santiago-de-cuba");
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)])],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    let q = link_query(&app, "seat 0");
    let (seat, token) = credentials(&q);
    runtime().block_on(async {
        let mut s = settled(&app, &format!("/api/table/0?{q}")).await;
        for _ in 0..4 {
            let action = s["legal"][0]["action"].clone();
            let (st, b) = post(
                &app,
                "/api/table/0/act",
                json!({"move": s["move"], "action": action, "seat": seat, "token": token}),
            )
            .await;
            assert_eq!(st, StatusCode::OK, "{b}");
            s = settled(&app, &format!("/api/table/0?{q}")).await;
        }
        let now = s["move"].as_u64().unwrap() as usize;
        let log: Vec<Value> = s["log"].as_array().unwrap().iter().map(|e| e[1].clone()).collect();
        let r = rulesmith::load("santiago-de-cuba").unwrap();
        for step in [0, 1, now / 2, now] {
            let (st, past) = get(&app, &format!("/api/table/0/past?{q}&step={step}")).await;
            assert_eq!(st, StatusCode::OK, "{past}");
            assert_eq!(past["step"], step);
            assert_eq!(past["seat"], 0);
            let mut g = r.game.start(2, 9).unwrap();
            for a in &log[..step] {
                g.play(a.as_str().unwrap()).unwrap();
            }
            assert_eq!(past["view"], g.view_json(0), "step {step}");
            // The twin: other players' hidden values and the generator changed.
            let mut twin_json = g.state_json();
            twin_json["players"][1]["pesos"] = json!(twin_json["players"][1]["pesos"].as_u64().unwrap() + 3);
            twin_json["players"][1]["vp"] = json!(twin_json["players"][1]["vp"].as_u64().unwrap() + 2);
            twin_json["rng"]["state"] = json!(12345);
            let mut twin = r.game.start(2, 9).unwrap();
            twin.set_state_json(twin_json).unwrap();
            assert_ne!(twin.state_json(), g.state_json());
            assert_eq!(past["view"], twin.view_json(0), "step {step}: the past view shows what seat 0 could not see");
            for key in ["goods", "pesos", "vp"] {
                assert_eq!(past["view"]["players"][1][key], "hidden", "step {step}: {key}");
            }
            assert!(past["view"].get("rng").is_none());
        }
        // The future is not for review.
        let (st, b) = get(&app, &format!("/api/table/0/past?{q}&step={}", now + 1)).await;
        refused(st, &b, StatusCode::BAD_REQUEST, "the game is at move");
        let (st, b) = get(&app, "/api/table/0/past?step=0").await;
        refused(st, &b, StatusCode::FORBIDDEN, "by link");
    });
}

/// Issue #50: a hint ranks the tree search's actions by their share of the root's visits,
/// from the seat's view only (a twin position that differs only in what the seat cannot
/// see gives the same hint), plays nothing, and is refused where hints are off.
#[test]
fn a_hint_ranks_the_searchs_choices_from_the_seats_view_only() {
    use rulesmith::core::Rng;
    let rs = offered("santiago-de-cuba");
    let mut off = TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)]);
    off.hints = None;
    let mut small = TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)]);
    small.hints = Some(200);
    let app = App::new(Options { tables: vec![small, off], rulesets: vec![rs], ..Options::default() }).unwrap();
    runtime().block_on(async {
        let s = settled(&app, "/api/table/0").await;
        assert_eq!(s["hints"], true);
        let m = s["move"].clone();
        let (st, h) = get(&app, &format!("/api/table/0/hint?move={m}")).await;
        assert_eq!(st, StatusCode::OK, "{h}");
        assert_eq!(h["iterations"], 200);
        let top = h["top"].as_array().unwrap();
        assert!(!top.is_empty() && top.len() <= 5, "{h}");
        let legal: Vec<&Value> = s["legal"].as_array().unwrap().iter().map(|l| &l["action"]).collect();
        assert_eq!(h["choice"], top[0]["action"]);
        let shares: Vec<f64> = top.iter().map(|t| t["share"].as_f64().unwrap()).collect();
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{h}");
        assert!(shares.iter().sum::<f64>() <= 1.0 + 1e-9);
        for t in top {
            assert!(legal.contains(&&t["action"]), "{t} is not legal");
        }
        // Never played for the person; the same position gives the same hint.
        assert_eq!(settled(&app, "/api/table/0").await["move"], m);
        assert_eq!(get(&app, &format!("/api/table/0/hint?move={m}")).await.1, h);
        let (st, b) = get(&app, &format!("/api/table/0/hint?move={}", m.as_u64().unwrap() + 1)).await;
        refused(st, &b, StatusCode::CONFLICT, "stale");
        let (st, b) = get(&app, &format!("/api/table/1/hint?move={m}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "turned off");
        assert_eq!(settled(&app, "/api/table/1").await["hints"], false);
    });
    // The twin-state property of the search a hint runs, for every game: positions that
    // differ only in what the seat to move cannot see give the same ranking.
    for (name, players, edit) in [
        (
            "santiago-de-cuba",
            3,
            &(|v: &mut Value, other: usize| {
                v["players"][other]["pesos"] = json!(v["players"][other]["pesos"].as_u64().unwrap() + 3);
            }) as &dyn Fn(&mut Value, usize),
        ),
        // The plantation stack's face-down order.
        ("puerto-rico", 3, &|v: &mut Value, _| v["stack"].as_array_mut().unwrap().reverse()),
        ("puerto-rico-expansion", 3, &|v: &mut Value, _| v["stack"].as_array_mut().unwrap().reverse()),
        ("mundo-163", 3, &|v: &mut Value, _| {
            // Two cards of the same back change places.
            v["privilege_deck"].as_array_mut().unwrap().swap(0, 1);
        }),
    ] {
        let r = rulesmith::load(name).unwrap();
        let mut g = r.game.start(players, 4).unwrap();
        let mut rng = bot_rng(4);
        for _ in 0..7 {
            let a = g.bots().unwrap().bot_choice(BotSpec::Random, &mut rng).unwrap();
            g.play(&a).unwrap();
        }
        let ToMove::Seat(me) = g.to_move() else { panic!("{name}: over") };
        let other = (usize::from(me) + 1) % players;
        let mut twin_json = g.state_json();
        edit(&mut twin_json, other);
        twin_json["rng"]["state"] = json!(777);
        let mut twin = r.game.start(players, 4).unwrap();
        twin.set_state_json(twin_json).unwrap();
        assert_ne!(twin.state_json(), g.state_json(), "{name}");
        assert_eq!(twin.view_json(me), g.view_json(me), "{name}: the twin differs in what seat {me} sees");
        let a = g.bots().unwrap().hint(300, &mut Rng::from_seed(1));
        let b = twin.bots().unwrap().hint(300, &mut Rng::from_seed(1));
        assert!(!a.is_empty(), "{name}");
        assert_eq!(a, b, "{name}: the hint depends on what seat {me} cannot see");
    }
}

/// Issue #50: play again deals the table's next game (same ruleset, seats and bots; the
/// next seed at a hot-seat table, a fresh secret one by links) once the game is over; the
/// session's games are saved together, one line each, and each finished one's record is
/// given for review.
#[test]
fn play_again_deals_the_next_game_and_keeps_the_session() {
    let rs = offered("santiago-de-cuba");
    let saved: Arc<std::sync::Mutex<Vec<Vec<Record>>>> = Arc::default();
    let keep = Arc::clone(&saved);
    let mut spec = TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)]);
    spec.resume = Some(bot_record("santiago-de-cuba", 2, 9));
    spec.save = Some(Box::new(move |games: &[Record]| {
        keep.lock().unwrap().push(games.to_vec());
        Ok(())
    }));
    let app = App::new(Options { tables: vec![spec], rulesets: vec![Arc::clone(&rs)], ..Options::default() }).unwrap();
    runtime().block_on(async {
        let s = settled(&app, "/api/table/0").await;
        assert!(!s["outcome"].is_null());
        assert_eq!((s["number"].clone(), s["again"].clone()), (json!(0), json!(true)));
        let first: Record = serde_json::from_value(get(&app, "/api/table/0/record").await.1).unwrap();
        let (st, b) = post(&app, "/api/table/0/next", json!({"move": 3})).await;
        refused(st, &b, StatusCode::CONFLICT, "stale");
        let (st, b) = post(&app, "/api/table/0/next", json!({"move": s["move"]})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        let s = settled(&app, "/api/table/0").await;
        assert_eq!(s["number"], 1);
        assert!(s["outcome"].is_null());
        assert_eq!(s["games"].as_array().unwrap().len(), 1);
        assert_eq!(s["games"][0]["outcome"], serde_json::to_value(&first.result).unwrap());
        // Not again before this one is over.
        let (st, b) = post(&app, "/api/table/0/next", json!({"move": s["move"]})).await;
        refused(st, &b, StatusCode::CONFLICT, "not over");
        let (st, b) = get(&app, "/api/table/0/record").await;
        assert_eq!(st, StatusCode::OK);
        let second: Record = serde_json::from_value(b).unwrap();
        assert_eq!((second.seed, second.bots.clone()), (10, first.bots.clone()));
        let (st, b) = get(&app, "/api/table/0/record?game=0").await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(serde_json::from_value::<Record>(b).unwrap(), first);
        let (st, b) = get(&app, "/api/table/0/record?game=5").await;
        refused(st, &b, StatusCode::BAD_REQUEST, "game 5");
    });
    let last = saved.lock().unwrap().last().cloned().unwrap();
    assert_eq!(last.len(), 2, "the session's record holds both games");
    assert!(last[0].result.is_some() && last[1].seed == 10);

    // By links: a fresh secret seed; the finished game's record is given, the new one's not.
    let mut spec = TableSpec::new(Arc::clone(&rs), 2, 9, vec![None, Some(BotSpec::Random)]);
    spec.resume = Some(bot_record("santiago-de-cuba", 2, 9));
    let app =
        App::new(Options { tables: vec![spec], rulesets: vec![rs], seating: Seating::Links, ..Options::default() })
            .unwrap();
    let q = link_query(&app, "seat 0");
    let (seat, token) = credentials(&q);
    runtime().block_on(async {
        let s = settled(&app, &format!("/api/table/0?{q}")).await;
        let (st, b) = post(&app, "/api/table/0/next", json!({"move": s["move"]})).await;
        refused(st, &b, StatusCode::FORBIDDEN, "by link");
        let (st, b) = post(&app, "/api/table/0/next", json!({"move": s["move"], "seat": seat, "token": token})).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        let s = settled(&app, &format!("/api/table/0?{q}")).await;
        assert!(s["outcome"].is_null() && s["number"] == 1);
        let (st, b) = get(&app, &format!("/api/table/0/record?{q}")).await;
        refused(st, &b, StatusCode::FORBIDDEN, "once the game is over");
        let (st, b) = get(&app, &format!("/api/table/0/record?{q}&game=0")).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        assert_eq!(b["seed"], 9);
    });
}

/// Issue #50: undo at a table by links goes back only to the seat's own previous decision,
/// only over its own decisions that drew nothing and revealed nothing to it, and never over
/// another's; a draw or a reveal (the settler phase's end turns up new plantations) stops
/// it, so undo cannot be used to peek.
#[test]
fn undo_by_link_never_goes_back_over_a_draw_a_reveal_or_another_seat() {
    let rs = offered("puerto-rico");
    let app = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 3, 9, vec![None, None, None])],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    let page = |seat: usize| link_query(&app, &format!("seat {seat}"));
    runtime().block_on(async {
        let s = settled(&app, &format!("/api/table/0?{}", page(0))).await;
        let governor = s["to_move"].as_u64().unwrap() as usize;
        let q = |seat: usize| page(seat);
        let act = |seat: usize, m: Value, action: &str| {
            let (st, tok) = credentials(&q(seat));
            json!({"move": m, "action": action, "seat": st, "token": tok})
        };
        let undo = |seat: usize, m: Value| {
            let (st, tok) = credentials(&q(seat));
            json!({"move": m, "seat": st, "token": tok})
        };
        let take = |s: &Value| {
            s["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["action"].as_str().unwrap().to_string())
                .find(|a| a.starts_with("take ") && a != "take quarry")
                .unwrap()
        };
        // Nothing to undo before a decision (and the page offers none).
        assert_eq!(s["undo"], false);
        let (st, b) = post(&app, "/api/table/0/undo", undo(governor, json!(0))).await;
        refused(st, &b, StatusCode::CONFLICT, "no decision yet");
        // The governor chooses the settler, then undoes it: nothing was drawn or revealed.
        let (st, b) = post(&app, "/api/table/0/act", act(governor, json!(0), "settler")).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        assert_eq!(b["undo"], true, "the governor's page offers the undo it would take");
        let (st, b) = post(&app, "/api/table/0/undo", undo(governor, json!(1))).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        assert_eq!(b["move"], 0);
        // Again, and a plantation; then the next seat takes one: the governor's undo would
        // change what another did.
        let mut m = 0;
        for action in ["settler".to_string()] {
            let (st, b) = post(&app, "/api/table/0/act", act(governor, json!(m), &action)).await;
            assert_eq!(st, StatusCode::OK, "{b}");
            m += 1;
        }
        let s = settled(&app, &format!("/api/table/0?{}", q(governor))).await;
        let (st, b) = post(&app, "/api/table/0/act", act(governor, json!(m), &take(&s))).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        m += 1;
        let next = (governor + 1) % 3;
        let s = settled(&app, &format!("/api/table/0?{}", q(next))).await;
        assert_eq!(s["to_move"], next);
        let (st, b) = post(&app, "/api/table/0/act", act(next, json!(m), &take(&s))).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        m += 1;
        assert_eq!(settled(&app, &format!("/api/table/0?{}", q(governor))).await["undo"], false);
        let (st, b) = post(&app, "/api/table/0/undo", undo(governor, json!(m))).await;
        refused(st, &b, StatusCode::CONFLICT, &format!("seat {next} has moved"));
        // The last seat's plantation ends the phase and turns up new ones: its undo is refused.
        let last = (governor + 2) % 3;
        let s = settled(&app, &format!("/api/table/0?{}", q(last))).await;
        let (st, b) = post(&app, "/api/table/0/act", act(last, json!(m), &take(&s))).await;
        assert_eq!(st, StatusCode::OK, "{b}");
        m += 1;
        let before = settled(&app, &format!("/api/table/0?{}", q(last))).await;
        assert_eq!(before["undo"], false, "the page offers no undo it would refuse");
        let (st, b) = post(&app, "/api/table/0/undo", undo(last, json!(m))).await;
        refused(st, &b, StatusCode::CONFLICT, "drew or revealed");
        let after = settled(&app, &format!("/api/table/0?{}", q(last))).await;
        assert_eq!(before["move"], after["move"]);
        assert_eq!(before["view"], after["view"]);
    });
}

/// Issue #50: `serve --resume` of a session's record file (one line a game) continues its
/// last game and keeps the earlier ones in the file; hint iterations are bounded.
#[test]
fn a_sessions_record_resumes_with_its_earlier_games_and_hints_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.json");
    let text = [bot_record("santiago-de-cuba", 2, 9), bot_record("santiago-de-cuba", 2, 10)]
        .iter()
        .map(|r| r.to_line() + "\n")
        .collect::<String>();
    std::fs::write(&path, &text).unwrap();
    let mut child = serving(&["--resume", path.to_str().unwrap()]);
    let kept = std::fs::read_to_string(&path).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(kept, text, "the session's file keeps both games as they were");

    // An earlier game of other seats is not this table's.
    let mut other = bot_record("santiago-de-cuba", 2, 9);
    other.bots = vec!["greedy".into(), "greedy".into()];
    std::fs::write(&path, other.to_line() + "\n" + &bot_record("santiago-de-cuba", 2, 10).to_line() + "\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
        .args(["serve", "--port", "0", "--resume", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the session's game 1"), "{stderr}");

    for n in ["0", "50001"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
            .args(["serve", "santiago-de-cuba", "--port", "0", "--hint-iterations", n])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("--hint-iterations {n}")), "{stderr}");
    }
}

/// Issue #50 (3, "turned off per table"): `--no-hints=RULESET` turns hints off at that
/// ruleset's table only: its page is not offered the hint and the API refuses it, while
/// the other table's person may ask; `--no-hints` alone turns them off everywhere; a name
/// that is no table's is refused (exit 2), naming it.
#[test]
fn hints_are_turned_off_per_table_from_the_command_line() {
    use std::io::{Read, Write};
    let start = |args: &[&str]| serving_at(&[&["--players", "2"], args].concat());
    let get = |addr: std::net::SocketAddr, path: &str| -> (u16, Value) {
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        write!(c, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        c.read_to_string(&mut text).unwrap();
        let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = text.split_once("\r\n\r\n").unwrap().1;
        (status, serde_json::from_str(body).unwrap())
    };
    // A table's position once its person is to move (the bots may move first).
    let settled = |addr, table: usize| {
        for _ in 0..600 {
            let (_, s) = get(addr, &format!("/api/table/{table}"));
            if s["acts"] == true {
                return s;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("table {table}: the person was never to move");
    };
    let (mut child, addr) = start(&["puerto-rico", "santiago-de-cuba", "--no-hints=santiago-de-cuba"]);
    let on = settled(addr, 0);
    let off = settled(addr, 1);
    assert_eq!(on["hints"], true, "puerto-rico's table offers the hint");
    assert_eq!(off["hints"], false, "santiago-de-cuba's table does not");
    let (st, b) = get(addr, &format!("/api/table/1/hint?move={}", off["move"]));
    assert_eq!(st, 403, "{b}");
    assert!(b["error"].as_str().unwrap().contains("hints are turned off at this table"), "{b}");
    let (st, b) = get(addr, &format!("/api/table/0/hint?move={}", on["move"]));
    assert_eq!(st, 200, "{b}");
    assert!(b["choice"].is_string(), "{b}");
    child.kill().unwrap();
    child.wait().unwrap();

    // A comma list; alone: every table.
    let (mut child, addr) = start(&["puerto-rico", "santiago-de-cuba", "--no-hints=puerto-rico,santiago-de-cuba"]);
    assert_eq!(settled(addr, 0)["hints"], false);
    assert_eq!(settled(addr, 1)["hints"], false);
    child.kill().unwrap();
    child.wait().unwrap();
    let (mut child, addr) = start(&["--no-hints", "puerto-rico", "santiago-de-cuba"]);
    assert_eq!(settled(addr, 0)["hints"], false);
    assert_eq!(settled(addr, 1)["hints"], false, "`--no-hints RULESET`: RULESET is a table, hints off at all");
    child.kill().unwrap();
    child.wait().unwrap();

    for (args, words) in [
        (&["puerto-rico", "--no-hints=mundo-163"][..], "--no-hints=mundo-163: no table plays that ruleset"),
        (&["puerto-rico", "--no-hints", "--hint-iterations", "10"][..], "--hint-iterations 10 with --no-hints"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesmith"))
            .args(["serve", "--port", "0"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
    }
}

/// Issue #50 (1): at a hot-seat table the past is shown as any person's seat saw it
/// (`view=S`), never as a bot's; at a seat's link `view` changes nothing (its own view
/// only, so the parameter cannot be used to peek).
#[test]
fn the_past_is_shown_as_any_persons_seat_and_never_a_bots() {
    let rs = offered("santiago-de-cuba");
    let hot = TableSpec::new(Arc::clone(&rs), 3, 4, vec![None, None, Some(BotSpec::Greedy)]);
    let app = App::new(Options { tables: vec![hot], rulesets: vec![Arc::clone(&rs)], ..Options::default() }).unwrap();
    let links = App::new(Options {
        tables: vec![TableSpec::new(Arc::clone(&rs), 3, 4, vec![None, None, Some(BotSpec::Greedy)])],
        rulesets: vec![rs],
        seating: Seating::Links,
        ..Options::default()
    })
    .unwrap();
    let r = rulesmith::load("santiago-de-cuba").unwrap();
    runtime().block_on(async {
        let mut s = settled(&app, "/api/table/0").await;
        assert_eq!(s["people"], json!([0, 1]));
        while s["move"].as_u64().unwrap() < 6 {
            let (st, b) =
                post(&app, "/api/table/0/act", json!({"move": s["move"], "action": s["legal"][0]["action"]})).await;
            assert_eq!(st, StatusCode::OK, "{b}");
            s = settled(&app, "/api/table/0").await;
        }
        let log: Vec<String> = s["log"].as_array().unwrap().iter().map(|e| e[1].as_str().unwrap().into()).collect();
        let mut g = r.game.start(3, 4).unwrap();
        for a in &log[..3] {
            g.play(a).unwrap();
        }
        for seat in [0u8, 1] {
            let (st, past) = get(&app, &format!("/api/table/0/past?step=3&view={seat}")).await;
            assert_eq!(st, StatusCode::OK, "{past}");
            assert_eq!(past["seat"], seat);
            assert_eq!(past["view"], g.view_json(seat), "seat {seat}'s view at step 3");
        }
        for seat in [2, 9] {
            let (st, b) = get(&app, &format!("/api/table/0/past?step=3&view={seat}")).await;
            refused(st, &b, StatusCode::BAD_REQUEST, "not a person's seat");
        }

        // By link: seat 0 asking for seat 1's view gets its own.
        let q = link_query(&links, "seat 0");
        let (st, past) = get(&links, &format!("/api/table/0/past?{q}&step=0&view=1")).await;
        assert_eq!(st, StatusCode::OK, "{past}");
        assert_eq!(past["seat"], 0);
        let start = r.game.start(3, 4).unwrap();
        assert_eq!(past["view"], start.view_json(0));
        assert_ne!(past["view"], start.view_json(1));
    });
}
