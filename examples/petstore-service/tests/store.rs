//! The store's behaviour over real HTTP: ids assigned by the service, exact under concurrent
//! adds; the `status` filter and `limit`; getPet's 404; orders.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use common::{ENTERPRISE_KEY, client, post_pet, send, start};
use petstore_service::PetStore;
use petstore_service::petstore_server::types::{NewPet, PetStatus};
use serde_json::{Value, json};

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("a JSON array")
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_adds_get_distinct_ids_and_are_all_listed() {
    let srv = Arc::new(start().await);
    let c = client();
    let tasks: Vec<_> = (0..200)
        .map(|i| {
            let c = c.clone();
            let srv = srv.clone();
            tokio::spawn(async move {
                let status = if i % 2 == 0 { "available" } else { "sold" };
                let body = format!(r#"{{"name":"pet-{i}","categoryId":{i},"status":"{status}"}}"#);
                let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, &body)).await;
                assert_eq!(r.status, 201, "{}", r.body);
                let pet = r.json();
                assert_eq!(pet["name"], format!("pet-{i}"));
                assert_eq!(pet["categoryId"], i);
                assert_eq!(pet["status"], status);
                pet["id"].as_i64().unwrap()
            })
        })
        .collect();
    let mut got = BTreeSet::new();
    for t in tasks {
        assert!(got.insert(t.await.unwrap()), "an id was handed out twice");
    }
    assert_eq!(got, (1..=200).collect::<BTreeSet<i64>>(), "ids are 1..=200");

    // At most 100 per list: the two statuses split the 200 exactly.
    let list = |q: &'static str| {
        let c = c.clone();
        let url = format!("{}/pets?{q}", srv.base_url());
        async move { send(c.get(url).bearer_auth(ENTERPRISE_KEY)).await.json() }
    };
    let available = list("status=available&limit=100").await;
    let sold = list("status=sold&limit=100").await;
    let mut listed: BTreeSet<i64> = ids(&available).into_iter().collect();
    listed.extend(ids(&sold));
    assert_eq!(listed, got, "every added pet is listed");
    for p in available.as_array().unwrap() {
        assert_eq!(p["status"], "available");
        let n: i64 = p["name"].as_str().unwrap()[4..].parse().unwrap();
        assert_eq!(n % 2, 0);
        assert_eq!(p["categoryId"], n);
    }
    // Without a filter: the first 100, in creation order.
    assert_eq!(ids(&list("limit=100").await), (1..=100).collect::<Vec<_>>());
    // Each one can be fetched.
    for id in [1, 57, 200] {
        let r = send(
            c.get(format!("{}/pets/{id}", srv.base_url()))
                .bearer_auth(ENTERPRISE_KEY),
        )
        .await;
        assert_eq!((r.status, r.json()["id"].as_i64()), (200, Some(id)));
    }
}

#[test]
fn the_store_is_exact_under_threads() {
    let store = Arc::new(PetStore::new());
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                (0..1000)
                    .map(|i| store.add(NewPet::new(format!("{t}-{i}"), t)).id)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all = BTreeSet::new();
    for t in threads {
        for id in t.join().unwrap() {
            assert!(all.insert(id));
        }
    }
    assert_eq!(all, (1..=8000).collect::<BTreeSet<i64>>());
    assert_eq!(store.len(), 8000);
    assert_eq!(store.list(None, 100).len(), 100);
}

#[tokio::test]
async fn status_filter_and_limit() {
    let srv = start().await;
    let c = client();
    let statuses = [Some("available"), Some("pending"), Some("sold"), None];
    for i in 0..25 {
        let body = match statuses[i % 4] {
            Some(s) => format!(r#"{{"name":"p{i}","categoryId":1,"status":"{s}"}}"#),
            None => format!(r#"{{"name":"p{i}","categoryId":1}}"#),
        };
        let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, &body)).await;
        assert_eq!(r.status, 201);
        if statuses[i % 4].is_none() {
            // no status given: none returned (no default)
            assert!(r.json().get("status").is_none(), "{}", r.body);
        }
    }
    let get = |q: &str| {
        let url = format!("{}/pets{q}", srv.base_url());
        let c = c.clone();
        async move {
            let r = send(c.get(url).bearer_auth(ENTERPRISE_KEY)).await;
            assert_eq!(r.status, 200, "{}", r.body);
            r.json()
        }
    };
    // default limit 20
    assert_eq!(ids(&get("").await), (1..=20).collect::<Vec<_>>());
    assert_eq!(ids(&get("?limit=5").await), vec![1, 2, 3, 4, 5]);
    assert_eq!(ids(&get("?limit=100").await).len(), 25);
    // only that status, in creation order, at most `limit`
    assert_eq!(
        ids(&get("?status=pending").await),
        vec![2, 6, 10, 14, 18, 22]
    );
    assert_eq!(ids(&get("?status=sold&limit=2").await), vec![3, 7]);
    let available = get("?status=available&limit=100").await;
    assert_eq!(ids(&available), vec![1, 5, 9, 13, 17, 21, 25]);
    assert!(
        available
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] == "available")
    );
    // the library view agrees
    let store = PetStore::new();
    for s in [Some(PetStatus::Sold), None, Some(PetStatus::Sold)] {
        store.add(NewPet::new("x", 1).with_status(s));
    }
    assert_eq!(store.list(Some(PetStatus::Sold), 10).len(), 2);
    assert_eq!(store.list(Some(PetStatus::Pending), 10).len(), 0);
    assert_eq!(store.list(None, 2).len(), 2);
}

#[tokio::test]
async fn get_pet_finds_or_answers_404() {
    let srv = start().await;
    let c = client();
    let created = send(post_pet(
        &c,
        &srv,
        ENTERPRISE_KEY,
        r#"{"name":"Rex","categoryId":7,"status":"pending"}"#,
    ))
    .await;
    assert_eq!(created.status, 201);
    assert_eq!(
        created.json(),
        json!({"id": 1, "name": "Rex", "categoryId": 7, "status": "pending"})
    );
    let r = send(
        c.get(format!("{}/pets/1", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json(), created.json());

    let r = send(
        c.get(format!("{}/pets/999", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY),
    )
    .await;
    assert_eq!(r.status, 404);
    assert_eq!(
        r.problem(),
        ("not_found".into(), "no animal with id 999".into())
    );
}

#[tokio::test]
async fn orders_are_an_empty_list() {
    let srv = start().await;
    let r = send(
        client()
            .get(format!("{}/store/orders", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json(), json!([]));
}

#[tokio::test]
async fn shutdown_stops_the_service() {
    let srv = start().await;
    let addr = srv.addr();
    srv.shutdown().await.unwrap();
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}
