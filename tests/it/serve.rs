//! `rulesmith serve`'s HTTP API, through the router itself (tower's `oneshot`, no
//! network): a hot-seat game played to its end with the bots, undo, the record; every bad
//! request refused with a 4xx and a JSON message; seats by link see only their own view;
//! replays stepped as seats and as the observer.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
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

/// Sends one request to the app; the status and the body (JSON, or `{"text": …}`).
async fn send(app: &App, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Value) {
    let req = Request::builder().method(method).uri(uri);
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b)),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let resp = app.router().oneshot(req).await.unwrap();
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
        replays: vec![],
        rulesets: vec![rs],
        seating: Seating::HotSeat,
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
        replays: vec![],
        rulesets: vec![rs],
        seating: Seating::Links,
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
        refused(st, &b, StatusCode::FORBIDDEN, "hot-seat");
    });
}

/// A game between bots, as a record.
fn bot_record(name: &str, players: usize, seed: u64) -> Record {
    let r = rulesmith::load(name).unwrap();
    let mut s = r.game.start(players, seed).unwrap();
    let mut rng = bot_rng(seed);
    while let ToMove::Seat(_) = s.to_move() {
        let a = s.bot_choice(BotSpec::Random, &mut rng).unwrap();
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
                    replays: vec![],
                    rulesets: vec![rs],
                    seating: Seating::HotSeat,
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
