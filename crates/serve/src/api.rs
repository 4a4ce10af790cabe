//! The HTTP routes: the bundled page, and a small JSON API the page speaks.

use crate::guard::Guard;
use crate::rejection::ApiError;
use crate::replay::Replays;
use crate::spec::{Ruleset, Seating};
use crate::sync::lock;
use crate::table::{Table, Viewer};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use rulesmith_core::game::Seat;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most bytes of a request body (an action, an undo).
pub const BODY_LIMIT: usize = 16 << 10;
/// Most bytes of a record sent to replay.
pub const RECORD_LIMIT: usize = 8 << 20;
/// Most time a request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const BOARDS_JS: &str = include_str!("assets/boards.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The boards, one module a game, loaded by the page as `/assets/boards/<game id>.js`.
const BOARDS: &[(&str, &str)] = &[
    ("puerto-rico.js", include_str!("assets/boards/puerto-rico.js")),
    ("puerto-rico-expansion.js", include_str!("assets/boards/puerto-rico-expansion.js")),
    ("santiago-de-cuba.js", include_str!("assets/boards/santiago-de-cuba.js")),
    ("mundo-163.js", include_str!("assets/boards/mundo-163.js")),
];

pub struct Shared {
    pub tables: Vec<Arc<Table>>,
    pub replays: Mutex<Replays>,
    pub rulesets: Vec<Arc<Ruleset>>,
    pub seating: Seating,
    /// Names the server answers to besides localhost and IP addresses (`--allow-host`).
    pub hosts: Vec<String>,
    /// One record sent to replay is read at a time (each may be megabytes until parsed).
    pub uploads: tokio::sync::Semaphore,
}

type Reply = Result<Response, ApiError>;
type Params = Result<Query<HashMap<String, String>>, QueryRejection>;
type Id = Result<Path<String>, PathRejection>;

/// The routes over `shared`, with body size limits and a time limit on every request, for
/// a server at port `port`: a request not addressed to it, or from another site's page, or
/// a POST not sent as JSON, is refused before any route ([`crate::guard`]).
pub fn router(shared: Arc<Shared>, port: u16) -> Router {
    let guard = Arc::new(Guard::new(port, &shared.hosts));
    let api = Router::new()
        .route("/api/tables", get(tables))
        .route("/api/table/{id}", get(table_state))
        .route("/api/table/{id}/rules", get(table_rules))
        .route("/api/table/{id}/record", get(table_record))
        .route("/api/table/{id}/act", post(act))
        .route("/api/table/{id}/undo", post(undo))
        .route("/api/table/{id}/past", get(table_past))
        .route("/api/table/{id}/hint", get(table_hint))
        .route("/api/table/{id}/next", post(next_game))
        .route("/api/replay/{id}", get(replay_step))
        .route("/api/replay/{id}/rules", get(replay_rules))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .merge(Router::new().route("/api/replays", post(add_replay)).layer(DefaultBodyLimit::max(RECORD_LIMIT)));
    Router::new()
        .route("/", get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/assets/app.js", get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/assets/boards.js", get(|| async { asset(BOARDS_JS, "text/javascript; charset=utf-8") }))
        .route("/assets/app.css", get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }))
        .route("/assets/boards/{file}", get(board))
        .merge(api)
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this route does not take that method")
        })
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, REQUEST_TIMEOUT))
        .layer(axum::middleware::from_fn_with_state(guard, crate::guard::guard))
        .with_state(shared)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Only this server's own scripts and styles: the page fetches nothing from elsewhere.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"),
    );
    r
}

async fn board(file: Id) -> Reply {
    let Path(file) = file?;
    match BOARDS.iter().find(|(name, _)| *name == file) {
        Some((_, body)) => Ok(asset(body, "text/javascript; charset=utf-8")),
        None => Err(ApiError::not_found(format!("no board module `{file}`"))),
    }
}

fn json_reply(v: Value) -> Reply {
    let mut r = axum::Json(v).into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(r)
}

fn number(what: &str, text: &str) -> Result<usize, ApiError> {
    text.parse::<usize>().map_err(|_| ApiError::bad(format!("{what} `{text}`: not a number")))
}

fn table(s: &Shared, id: Id) -> Result<Arc<Table>, ApiError> {
    let Path(id) = id?;
    let n = number("table", &id).map_err(|e| ApiError::not_found(e.message))?;
    s.tables.get(n).cloned().ok_or_else(|| match s.tables.len() {
        0 => ApiError::not_found(format!("no table {n}: this server has no tables")),
        k => ApiError::not_found(format!("no table {n} (tables 0 to {})", k - 1)),
    })
}

/// Whose page a request is (a hot-seat table's; at a table by links the seat, or the
/// observer, its token opens).
fn viewer(t: &Table, q: &HashMap<String, String>) -> Result<Viewer, ApiError> {
    Ok(t.viewer(q.get("seat").map(String::as_str), q.get("token").map(String::as_str))?)
}

async fn tables(State(s): State<Arc<Shared>>) -> Reply {
    let tables: Vec<Value> = s
        .tables
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "ruleset": t.ruleset().name,
                "game": t.ruleset().game.game_id(),
                "players": t.players(),
                "names": t.names,
            })
        })
        .collect();
    let replays = lock(&s.replays).list();
    json_reply(json!({
        "seating": match s.seating { Seating::HotSeat => "hot-seat", Seating::Links => "links" },
        "tables": tables,
        "replays": replays,
        "rulesets": s.rulesets.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
    }))
}

async fn table_state(State(s): State<Arc<Shared>>, id: Id, q: Params) -> Reply {
    let t = table(&s, id)?;
    let Query(q) = q?;
    let v = viewer(&t, &q)?;
    json_reply(t.snapshot().to_json(&t, v))
}

async fn table_rules(State(s): State<Arc<Shared>>, id: Id) -> Reply {
    let t = table(&s, id)?;
    json_reply(t.ruleset().rules.clone())
}

async fn table_record(State(s): State<Arc<Shared>>, id: Id, q: Params) -> Reply {
    let t = table(&s, id)?;
    let Query(q) = q?;
    let v = viewer(&t, &q)?;
    let game = q.get("game").map(|g| number("game", g)).transpose()?;
    // The record carries the seed, from which every hidden holding follows: at a table by
    // links the game in play's is given to no one until it is over.
    let record = t.record(v, game)?;
    // Nor while another table by links deals from the same seed (`--seed` given once for
    // all tables).
    if let Some(other) = s.tables.iter().find(|o| o.id != t.id && o.keeps_secret(record.seed)) {
        return Err(ApiError::forbidden(format!(
            "the record (with its seed) is given once table {} is over too: it was dealt from the same seed",
            other.id
        )));
    }
    let mut r = (record.to_line() + "\n").into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let name = format!("attachment; filename=\"{}-{}.json\"", t.ruleset().name, record.actions.len());
    if let Ok(v) = HeaderValue::from_str(&name) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// A past position of the game in play, as the page's viewer saw it (`step`; at a
/// hot-seat table `view`, the person's seat whose view to show).
async fn table_past(State(s): State<Arc<Shared>>, id: Id, q: Params) -> Reply {
    let t = table(&s, id)?;
    let Query(q) = q?;
    let v = viewer(&t, &q)?;
    let step = number("step", q.get("step").map_or("", String::as_str))?;
    let seat = match q.get("view") {
        None => None,
        Some(n) => {
            let n = number("view", n)?;
            Some(Seat::try_from(n).map_err(|_| ApiError::bad(format!("view {n}: no such seat")))?)
        }
    };
    // Up to a whole game played again: off the request thread.
    let v = tokio::task::spawn_blocking(move || t.past(v, step, seat))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    json_reply(v)
}

/// What the tree search would choose now, for the person to move, with its top
/// alternatives (never played).
async fn table_hint(State(s): State<Arc<Shared>>, id: Id, q: Params) -> Reply {
    let t = table(&s, id)?;
    let Query(q) = q?;
    let v = viewer(&t, &q)?;
    let moves = number("move", q.get("move").map_or("", String::as_str))?;
    let (ranked, iterations) = tokio::task::spawn_blocking(move || t.hint(v, moves))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let total: u32 = ranked.iter().map(|(_, n)| n).sum();
    let top: Vec<Value> = ranked
        .iter()
        .take(HINT_TOP)
        .map(|(a, n)| json!({"action": a, "visits": n, "share": f64::from(*n) / f64::from(total.max(1))}))
        .collect();
    json_reply(
        json!({"move": moves, "iterations": iterations, "choice": top.first().map(|t| t["action"].clone()), "top": top}),
    )
}

/// How many of the search's actions a hint lists.
const HINT_TOP: usize = 5;

/// A JSON body of type `T`, its errors named.
fn body<T: for<'de> Deserialize<'de>>(b: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let b = b?;
    serde_json::from_slice(&b).map_err(|e| ApiError::bad(format!("the request body: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    /// The move number the page showed (refused if the game moved on).
    #[serde(rename = "move")]
    moves: usize,
    action: String,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

async fn act(State(s): State<Arc<Shared>>, id: Id, b: Result<Bytes, BytesRejection>) -> Reply {
    let t = table(&s, id)?;
    let a: Act = body(b)?;
    let v = t.viewer(a.seat.as_deref(), a.token.as_deref())?;
    if a.action.len() > 1000 {
        return Err(ApiError::bad("the action is longer than any action of the game"));
    }
    t.act(v, a.moves, &a.action)?;
    json_reply(t.snapshot().to_json(&t, v))
}

/// A request that changes the game but names no action: undo, play again.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    #[serde(rename = "move")]
    moves: usize,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

async fn undo(State(s): State<Arc<Shared>>, id: Id, b: Result<Bytes, BytesRejection>) -> Reply {
    let t = table(&s, id)?;
    let u: Step = body(b)?;
    let v = t.viewer(u.seat.as_deref(), u.token.as_deref())?;
    t.undo(v, u.moves)?;
    json_reply(t.snapshot().to_json(&t, v))
}

async fn next_game(State(s): State<Arc<Shared>>, id: Id, b: Result<Bytes, BytesRejection>) -> Reply {
    let t = table(&s, id)?;
    let u: Step = body(b)?;
    let v = t.viewer(u.seat.as_deref(), u.token.as_deref())?;
    t.next_game(v, u.moves)?;
    json_reply(t.snapshot().to_json(&t, v))
}

fn replay(s: &Shared, id: Id) -> Result<Arc<crate::replay::Replay>, ApiError> {
    let Path(id) = id?;
    let n = number("replay", &id).map_err(|e| ApiError::not_found(e.message))?;
    lock(&s.replays).get(n).ok_or_else(|| ApiError::not_found(format!("no replay {n}")))
}

async fn replay_step(State(s): State<Arc<Shared>>, id: Id, q: Params) -> Reply {
    let r = replay(&s, id)?;
    let Query(q) = q?;
    let step = match q.get("step") {
        Some(t) => number("step", t)?,
        None => 0,
    };
    let seat = match q.get("seat").map(String::as_str) {
        None | Some("observer") | Some("") => None,
        Some(t) => {
            let n = number("seat", t)?;
            Some(Seat::try_from(n).map_err(|_| ApiError::bad(format!("seat {n}: no such seat")))?)
        }
    };
    // Up to a whole game played again: off the request thread.
    let v = tokio::task::spawn_blocking(move || r.at(step, seat))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    json_reply(v)
}

async fn replay_rules(State(s): State<Arc<Shared>>, id: Id) -> Reply {
    let r = replay(&s, id)?;
    json_reply(r.ruleset.rules.clone())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewReplay {
    /// A record file's text: one game's JSON line.
    record: String,
}

async fn add_replay(State(s): State<Arc<Shared>>, req: Request) -> Reply {
    // The body is read only once it is this request's turn: records in flight stay few.
    let _turn = s.uploads.acquire().await.map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let n: NewReplay = body(Bytes::from_request(req, &s).await)?;
    let mut lines = rulesmith_core::record::parse_lines(&n.record);
    let rec = match (lines.next(), lines.next()) {
        (None, _) => return Err(ApiError::bad("the record: no game record in it")),
        (Some((_, first)), None) => first.map_err(|e| ApiError::bad(format!("the record: {e}")))?,
        (Some(_), Some((line, _))) => {
            return Err(ApiError::bad(format!("the record: more than one game (line {line}); send one game's line")));
        }
    };
    drop(lines);
    drop(n);
    if let Some(t) = s.tables.iter().find(|t| t.keeps_secret(rec.seed)) {
        return Err(ApiError::forbidden(format!(
            "the record: its seed is table {}'s, still in play by links; it is not replayed \
             before that game is over (its seed would show every hidden holding)",
            t.id
        )));
    }
    let Some(ruleset) = s.rulesets.iter().find(|r| r.digest == rec.digest).cloned() else {
        return Err(ApiError::unprocessable(format!(
            "the record's ruleset `{}` is not one this server plays (by digest); serve it to replay it",
            rec.ruleset
        )));
    };
    let shared = Arc::clone(&s);
    let id = tokio::task::spawn_blocking(move || {
        // Checked outside the lock (it plays the whole game), kept under it.
        let replay = crate::replay::Replay::check(ruleset, rec)?;
        Ok::<_, ApiError>(lock(&shared.replays).upload(replay)?)
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    json_reply(json!({ "replay": id }))
}
