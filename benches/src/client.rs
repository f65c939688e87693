//! Client comparison: the generated client against plain reqwest calls that send the same
//! requests and decode the same JSON, both against one generated server (limiter off) in a
//! child process, with the same number of concurrent callers.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use petstore_client::client::ListPetsOptions;
use petstore_client::{Client, RetryPolicy};
use serde::{Deserialize, Serialize};

use crate::Settings;
use crate::load::RunResult;
use crate::serve::{KEY, Kind, SEEDED_PETS, ServerProcess, cpu_ns_of_self};
use crate::stats::Pair;

const USER_AGENT: &str = "petstore-client/1.0.0";

pub struct Row {
    pub request: &'static str,
    pub pair: Pair,
}

/// What a hand-written client would declare: the wire shapes, nothing more.
#[derive(Debug, Deserialize)]
#[allow(dead_code)] // the fields are decoded, which is the work being measured
struct PetDto {
    id: i64,
    name: String,
    #[serde(rename = "categoryId")]
    category_id: i64,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Debug, Serialize)]
struct NewPetDto<'a> {
    name: &'a str,
    #[serde(rename = "categoryId")]
    category_id: i64,
    status: &'a str,
}

/// Runs `call(n)` from `callers` concurrent tasks for `warmup`, then for `duration`,
/// recording each completed call's latency. `call` answers whether the outcome was the
/// expected one.
async fn drive<F, Fut>(
    callers: usize,
    warmup: Duration,
    duration: Duration,
    call: F,
) -> Result<RunResult, String>
where
    F: Fn(u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<bool, String>> + Send,
{
    let call = Arc::new(call);
    let measure_from = Instant::now() + warmup;
    let end = measure_from + duration;
    let mut tasks = Vec::with_capacity(callers);
    for i in 0..callers {
        let call = call.clone();
        tasks.push(tokio::spawn(async move {
            let mut n = i as u64;
            let (mut completed, mut unexpected, mut all) = (0u64, 0u64, 0u64);
            let mut latencies = Vec::with_capacity(16 * 1024);
            loop {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let ok = call(n).await?;
                n += callers as u64;
                let done = Instant::now();
                all += 1;
                if sent >= measure_from && done <= end {
                    completed += 1;
                    unexpected += u64::from(!ok);
                    latencies.push((done - sent).as_micros().min(u128::from(u32::MAX)) as u32);
                }
            }
            Ok::<_, String>((completed, unexpected, all, latencies))
        }));
    }
    let mut result = RunResult {
        window: duration,
        ..RunResult::default()
    };
    for task in tasks {
        let (c, u, a, l) = task.await.map_err(|e| e.to_string())??;
        result.completed += c;
        result.unexpected += u;
        result.all_completed += a;
        result.latencies_us.extend(l);
    }
    result.latencies_us.sort_unstable();
    Ok(result)
}

#[derive(Clone, Copy)]
enum Op {
    List,
    Create,
    Get,
}

/// One call of the generated client; whether the outcome was the expected one.
async fn call_generated(client: &Client, op: Op, n: u64) -> Result<bool, String> {
    Ok(match op {
        Op::List => client
            .list_pets_with(ListPetsOptions {
                limit: Some(20),
                ..Default::default()
            })
            .await
            .is_ok_and(|pets| pets.len() == 20),
        Op::Create => client
            .create_pet(
                &petstore_client::types::NewPet::new("Rex", 7)
                    .with_status(petstore_client::types::PetStatus::Available),
            )
            .await
            .is_ok(),
        Op::Get => {
            let id = (n % SEEDED_PETS as u64) as i64 + 1;
            #[allow(deprecated)]
            let pet = client.get_pet(id).await;
            pet.is_ok_and(|p| p.id == id)
        }
    })
}

/// The same call with plain reqwest; whether the outcome was the expected one.
async fn call_plain(http: &reqwest::Client, base: &str, op: Op, n: u64) -> Result<bool, String> {
    let request = match op {
        Op::List => http.get(format!("{base}/pets?limit=20")),
        Op::Create => {
            let body = serde_json::to_vec(&NewPetDto {
                name: "Rex",
                category_id: 7,
                status: "available",
            })
            .map_err(|e| e.to_string())?;
            http.post(format!("{base}/pets"))
                .header(http::header::CONTENT_TYPE, "application/json")
                .body(body)
        }
        Op::Get => {
            let id = (n % SEEDED_PETS as u64) as i64 + 1;
            http.get(format!("{base}/pets/{id}"))
        }
    };
    let resp = request
        .bearer_auth(KEY)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let body = resp.bytes().await.map_err(|e| e.to_string())?;
    Ok(match op {
        Op::List => {
            status == 200
                && serde_json::from_slice::<Vec<PetDto>>(&body).is_ok_and(|p| p.len() == 20)
        }
        Op::Create => status == 201 && serde_json::from_slice::<PetDto>(&body).is_ok(),
        Op::Get => status == 200 && serde_json::from_slice::<PetDto>(&body).is_ok(),
    })
}

async fn run_generated(client: Client, op: Op, settings: &Settings) -> Result<RunResult, String> {
    drive(
        settings.connections,
        settings.warmup,
        settings.duration,
        move |n| {
            let client = client.clone();
            async move { call_generated(&client, op, n).await }
        },
    )
    .await
}

async fn run_plain(
    http: reqwest::Client,
    base: Arc<str>,
    op: Op,
    settings: &Settings,
) -> Result<RunResult, String> {
    drive(
        settings.connections,
        settings.warmup,
        settings.duration,
        move |n| {
            let http = http.clone();
            let base = base.clone();
            async move { call_plain(&http, &base, op, n).await }
        },
    )
    .await
}

/// The two clients as `run` builds them.
fn clients(base: &str) -> Result<(Client, reqwest::Client), String> {
    // Default retry policy: it costs nothing on success, and it is what users get.
    let generated = Client::builder(base.to_owned())
        .bearer_auth(KEY)
        .retry_policy(RetryPolicy::default())
        .build()
        .map_err(|e| e.to_string())?;
    // Configured as the generated client is by default: the same user agent and the same
    // timeouts (10 s to connect, 60 s per request). A client without a timeout is not one a
    // team would ship, and reqwest's timeout costs every request a timer; measured both ways
    // on 2026-11-23, the timer alone is 2-3 % of this loop, so leaving it out of one side
    // only would measure the timer, not the generated code.
    let plain = reqwest::Client::builder()
        .user_agent(USER_AGENT)
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;
    Ok((generated, plain))
}

/// `petstore-bench profile-client generated|plain list|create|get N`: N sequential calls of
/// one client against a generated server in a child process, for a profiler
/// (`valgrind --tool=callgrind` sees only this process, so only the client's work).
pub fn profile(args: &[String]) -> Result<(), String> {
    let usage = "profile-client generated|plain list|create|get N";
    let generated_side = match args.first().map(String::as_str) {
        Some("generated") => true,
        Some("plain") => false,
        _ => return Err(usage.to_owned()),
    };
    let op = match args.get(1).map(String::as_str) {
        Some("list") => Op::List,
        Some("create") => Op::Create,
        Some("get") => Op::Get,
        _ => return Err(usage.to_owned()),
    };
    let n: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| usage.to_owned())?;
    let server = ServerProcess::start(Kind::Generated, false)?;
    let base = format!("http://{}/v1", server.addr);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let (generated, plain) = clients(&base)?;
        for i in 0..n {
            let ok = if generated_side {
                call_generated(&generated, op, i).await?
            } else {
                call_plain(&plain, &base, op, i).await?
            };
            if !ok {
                return Err(format!("call {i}: unexpected outcome"));
            }
        }
        Ok(())
    })
}

pub async fn run(settings: &Settings) -> Result<Vec<Row>, String> {
    let server = ServerProcess::start(Kind::Generated, false)?;
    let base: Arc<str> = format!("http://{}/v1", server.addr).into();
    let (generated, plain) = clients(&base)?;

    let mut rows = Vec::new();
    for (request, op) in [
        ("listPets (limit=20)", Op::List),
        ("createPet", Op::Create),
        ("getPet", Op::Get),
    ] {
        let mut pair = Pair::default();
        for round in 0..settings.rounds {
            let generated_first = round % 2 == 0;
            for generated_turn in [generated_first, !generated_first] {
                // This process runs only the clients (the server is a child process), so its
                // CPU time per call is the client's cost.
                let cpu_before = cpu_ns_of_self();
                let result = if generated_turn {
                    run_generated(generated.clone(), op, settings).await?
                } else {
                    run_plain(plain.clone(), base.clone(), op, settings).await?
                };
                let cpu = cpu_ns_of_self().saturating_sub(cpu_before);
                let side = if generated_turn {
                    &mut pair.generated
                } else {
                    &mut pair.handwritten
                };
                side.push(&result, cpu);
            }
        }
        eprintln!(
            "  client {:<22}: {:>8.0} vs {:>8.0} calls/s, ratio {:.3}",
            request,
            crate::stats::median(&pair.generated.per_sec),
            crate::stats::median(&pair.handwritten.per_sec),
            pair.ratio()
        );
        rows.push(Row { request, pair });
    }
    drop(server);
    Ok(rows)
}
