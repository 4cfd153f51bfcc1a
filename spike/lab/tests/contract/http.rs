//! The REST servers' part of the contract, asked with plain HTTP so that no client library stands
//! between the probe and the server: what each does with a commit's requirements and with the
//! REST spec's `Idempotency-Key`, one trial per server and probe, `<catalog>::<probe>`, on every
//! catalog kind that speaks the REST protocol. Each prints what the server answered, and fails
//! where a server breaks what a conditional commit relies on: a stale requirement accepted, a
//! duplicate snapshot id accepted, or a resend with the same key executed twice by a server that
//! advertises keys.
//!
//! The commits add snapshots whose manifest lists do not exist: a REST server checks requirements
//! and applies updates to the metadata without reading manifests, and no reader touches these
//! tables.

use barrier_harness::CatalogKind;
use barrier_harness::catalogs::{Access, Place};
use barrier_iceberg::{Connection, RestAuth, RestConnection};
use libtest_mimic::Trial;
use serde_json::{Value, json};

/// Every probe on every REST server.
pub fn trials() -> Vec<Trial> {
    let probes: [(&str, Probe); 7] = [
        ("assert_ref_snapshot_id", assert_ref_snapshot_id),
        ("assert_table_uuid", assert_table_uuid),
        ("requirement_only_commit", requirement_only_commit),
        ("assert_non_main_ref", assert_non_main_ref),
        ("duplicate_snapshot_id", duplicate_snapshot_id),
        ("idempotency_key_resend", idempotency_key_resend),
        ("idempotency_key_is_not_an_epoch_check", idempotency_key_is_not_an_epoch_check),
    ];
    CatalogKind::ALL
        .iter()
        .copied()
        .filter(|kind| kind.speaks_rest())
        .flat_map(|kind| probes.map(|(name, probe)| trial(kind, name, probe)))
        .collect()
}

type Probe = for<'a> fn(&'a Table) -> futures::future::BoxFuture<'a, Result<String, String>>;

fn trial(kind: CatalogKind, name: &'static str, probe: Probe) -> Trial {
    super::trial(kind, name, move || {
        Box::pin(async move {
            let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
            let place = Place::fresh(kind, dir.path()).map_err(|e| e.to_string())?;
            let Connection::Rest(rest) = place.connection(&Access::default()).map_err(|e| e.to_string())? else {
                return Err(format!("{kind} is marked rest but connects otherwise"));
            };
            let table = Table::create(&rest, &place.namespace(), kind.idempotency_keys()).await?;
            probe(&table).await.map(|observed| (true, observed))
        })
    })
}

/// A fresh table on one REST server, and the HTTP calls the probes make on it.
struct Table {
    http: reqwest::Client,
    /// The bearer token to present, if the server authenticates.
    token: Option<String>,
    /// `<uri>/v1[/<prefix>]/namespaces/<namespace>/tables/<table>`
    url: String,
    /// The `idempotency-key-lifetime` the server's config advertised, if any.
    lifetime: Option<String>,
    /// `<uri>/v1[/<prefix>]`
    base: String,
    name: (String, String),
    /// The catalog's profile says the server honours `Idempotency-Key` (held to it here).
    keys_expected: bool,
}

/// What the server answered to one commit.
struct Answer {
    status: u16,
    replayed: bool,
    body: String,
}

impl Answer {
    fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    fn label(&self) -> String {
        match self.replayed {
            true => format!("{} (idempotency-key-used)", self.status),
            false => self.status.to_string(),
        }
    }

    fn expect_ok(self, what: &str) -> Result<Self, String> {
        match self.ok() {
            true => Ok(self),
            false => Err(format!("{what}: HTTP {}: {}", self.status, self.body)),
        }
    }
}

impl Table {
    async fn create(rest: &RestConnection, namespace: &str, keys_expected: bool) -> Result<Self, String> {
        let http = reqwest::Client::new();
        let token = match &rest.auth {
            RestAuth::None => None,
            RestAuth::Bearer(token) => Some(token.clone()),
            RestAuth::OAuthClient(credential) => {
                let (id, secret) = credential.split_once(':').ok_or("credential is not id:secret")?;
                let form = format!("grant_type=client_credentials&client_id={id}&client_secret={secret}&scope=catalog");
                let response = http
                    .post(format!("{}/v1/oauth/tokens", rest.uri))
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(form)
                    .send()
                    .await
                    .map_err(|e| format!("token: {e}"))?;
                Some(json_of(response).await?["access_token"].as_str().ok_or("no access_token")?.to_string())
            }
        };
        let config = http
            .get(format!("{}/v1/config?warehouse={}", rest.uri, rest.warehouse))
            .authed(&token)
            .send()
            .await
            .map_err(|e| format!("config: {e}"))?;
        let config = json_of(config).await?;
        let prefix = config["overrides"]["prefix"].as_str().map(|p| format!("/{p}")).unwrap_or_default();
        let base = format!("{}/v1{prefix}", rest.uri);
        let lifetime = config["idempotency-key-lifetime"].as_str().map(str::to_string);
        let name = (namespace.to_string(), "t".to_string());
        let mut table = Self { http, token, url: String::new(), lifetime, base, name, keys_expected };
        table
            .post(&format!("{}/namespaces", table.base), &json!({"namespace": [namespace], "properties": {}}), None)
            .await?
            .expect_ok("create namespace")?;
        let schema = json!({"type": "struct", "schema-id": 0,
            "fields": [{"id": 1, "name": "x", "required": false, "type": "long"}]});
        let creation = json!({"name": "t", "schema": schema, "properties": {"format-version": "2"}});
        table
            .post(&format!("{}/namespaces/{namespace}/tables", table.base), &creation, None)
            .await?
            .expect_ok("create table")?;
        table.url = format!("{}/namespaces/{namespace}/tables/t", table.base);
        Ok(table)
    }

    async fn post(&self, url: &str, body: &Value, key: Option<&str>) -> Result<Answer, String> {
        let mut request =
            self.http.post(url).authed(&self.token).header("content-type", "application/json").body(body.to_string());
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await.map_err(|e| format!("POST {url}: {e}"))?;
        let status = response.status().as_u16();
        let replayed = response.headers().get("idempotency-key-used").is_some_and(|v| v == "true");
        let body = response.text().await.map_err(|e| format!("POST {url}: {e}"))?;
        Ok(Answer { status, replayed, body })
    }

    async fn commit(&self, requirements: Value, updates: Value, key: Option<&str>) -> Result<Answer, String> {
        self.post(&self.url, &json!({"requirements": requirements, "updates": updates}), key).await
    }

    async fn metadata(&self) -> Result<Value, String> {
        let response = self.http.get(&self.url).authed(&self.token).send().await.map_err(|e| format!("load: {e}"))?;
        Ok(json_of(response).await?["metadata"].clone())
    }

    /// Appends a snapshot to `main` (summary `epoch`, if given), asserting `main` at `parent`.
    async fn append(
        &self,
        parent: Option<i64>,
        epoch: Option<u32>,
        key: Option<&str>,
    ) -> Result<(i64, Answer), String> {
        let (id, body) = self.append_body(parent, epoch).await?;
        Ok((id, self.post(&self.url, &body, key).await?))
    }

    /// The body of [`Table::append`]'s commit, and the snapshot it adds.
    async fn append_body(&self, parent: Option<i64>, epoch: Option<u32>) -> Result<(i64, Value), String> {
        let metadata = self.metadata().await?;
        let id = rand_id();
        let mut summary = json!({"operation": "append"});
        if let Some(epoch) = epoch {
            summary["barrier.epoch"] = json!(epoch.to_string());
        }
        let mut snapshot = json!({
            "snapshot-id": id,
            "sequence-number": metadata["last-sequence-number"].as_i64().unwrap_or(0) + 1,
            "timestamp-ms": now_ms(),
            "manifest-list": format!("{}/metadata/snap-{id}.avro", metadata["location"].as_str().unwrap_or("")),
            "summary": summary,
            "schema-id": 0,
        });
        // Absent, not null, for a first snapshot: Iceberg Java's parser refuses a null.
        if let Some(parent) = parent {
            snapshot["parent-snapshot-id"] = json!(parent);
        }
        let updates = json!([{"action": "add-snapshot", "snapshot": snapshot},
            {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch", "snapshot-id": id}]);
        Ok((id, json!({"requirements": [main_at(parent)], "updates": updates})))
    }

    async fn main(&self) -> Result<Option<i64>, String> {
        Ok(self.metadata().await?["current-snapshot-id"].as_i64().filter(|id| *id != -1))
    }

    async fn property(&self, name: &str) -> Result<Option<String>, String> {
        Ok(self.metadata().await?["properties"][name].as_str().map(str::to_string))
    }
}

fn main_at(snapshot: Option<i64>) -> Value {
    json!({"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": snapshot})
}

fn set_property(name: &str, value: &str) -> Value {
    json!([{"action": "set-properties", "updates": {name: value}}])
}

/// A request with the server's bearer token, where it authenticates.
trait Authed {
    fn authed(self, token: &Option<String>) -> Self;
}

impl Authed for reqwest::RequestBuilder {
    fn authed(self, token: &Option<String>) -> Self {
        match token {
            Some(token) => self.bearer_auth(token),
            None => self,
        }
    }
}

async fn json_of(response: reqwest::Response) -> Result<Value, String> {
    let status = response.status();
    let text = response.text().await.map_err(|e| e.to_string())?;
    match status.is_success() {
        true => serde_json::from_str(&text).map_err(|e| format!("{e}: {text}")),
        false => Err(format!("HTTP {status}: {text}")),
    }
}

fn rand_id() -> i64 {
    (uuid::Uuid::new_v4().as_u64_pair().0 >> 2) as i64
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// A stale `assert-ref-snapshot-id`, as absent and at a snapshot, must be refused and change
/// nothing.
fn assert_ref_snapshot_id(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let (s1, first) = table.append(None, None, None).await?;
        first.expect_ok("append on absent main")?;
        let absent = table.commit(json!([main_at(None)]), set_property("p", "absent"), None).await?;
        let (_, second) = table.append(Some(s1), None, None).await?;
        second.expect_ok("append on main at its head")?;
        let at_snapshot = table.commit(json!([main_at(Some(s1))]), set_property("p", "stale"), None).await?;
        if absent.ok() || at_snapshot.ok() || table.property("p").await?.is_some() {
            return Err(format!(
                "a stale requirement was accepted: absent {}, at a snapshot {}",
                absent.status, at_snapshot.status
            ));
        }
        Ok(format!("stale as absent: {}; stale at a snapshot: {}", absent.label(), at_snapshot.label()))
    })
}

/// `assert-table-uuid` of another table must be refused.
fn assert_table_uuid(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let other = json!([{"type": "assert-table-uuid", "uuid": uuid::Uuid::new_v4().to_string()}]);
        let wrong = table.commit(other, set_property("p", "other table"), None).await?;
        let uuid = table.metadata().await?["table-uuid"].clone();
        let right = table
            .commit(json!([{"type": "assert-table-uuid", "uuid": uuid}]), set_property("p", "this table"), None)
            .await?;
        if wrong.ok() || !right.ok() {
            return Err(format!("wrong uuid {}, right uuid {}", wrong.status, right.status));
        }
        Ok(format!("another table's uuid: {}; its own: {}", wrong.label(), right.label()))
    })
}

/// A commit with requirements and no updates: a server may refuse it outright, but a stale one
/// must never be accepted. Asked on the table endpoint and on `transactions/commit`.
fn requirement_only_commit(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let (s1, first) = table.append(None, None, None).await?;
        first.expect_ok("append")?;
        let current = table.commit(json!([main_at(Some(s1))]), json!([]), None).await?;
        let stale = table.commit(json!([main_at(None)]), json!([]), None).await?;
        let (namespace, name) = &table.name;
        let change = |requirement| {
            json!({"table-changes": [{"identifier": {"namespace": [namespace], "name": name},
                "requirements": [requirement], "updates": []}]})
        };
        let transactions = format!("{}/transactions/commit", table.base);
        let stale_tx = table.post(&transactions, &change(main_at(None)), None).await?;
        if stale.ok() || stale_tx.ok() {
            return Err(format!(
                "a stale requirement-only commit was accepted: table {}, transaction {}",
                stale.status, stale_tx.status
            ));
        }
        Ok(format!(
            "current: {}; stale: {}; stale in transactions/commit: {} {}",
            current.label(),
            stale.label(),
            stale_tx.label(),
            excerpt(&stale_tx.body)
        ))
    })
}

/// `assert-ref-snapshot-id` on a branch other than `main` is checked like `main`.
fn assert_non_main_ref(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let (s1, first) = table.append(None, None, None).await?;
        first.expect_ok("append")?;
        let branch = json!([{"action": "set-snapshot-ref", "ref-name": "audit", "type": "branch", "snapshot-id": s1}]);
        table.commit(json!([]), branch, None).await?.expect_ok("create branch audit")?;
        let (s2, second) = table.append(Some(s1), None, None).await?;
        second.expect_ok("append")?;
        let audit_at = |id| json!([{"type": "assert-ref-snapshot-id", "ref": "audit", "snapshot-id": id}]);
        let wrong = table.commit(audit_at(s2), set_property("p", "wrong"), None).await?;
        let right = table.commit(audit_at(s1), set_property("p", "right"), None).await?;
        if wrong.ok() || !right.ok() {
            return Err(format!("audit asserted wrongly {}, rightly {}", wrong.status, right.status));
        }
        Ok(format!("audit at another snapshot: {}; at its own: {}", wrong.label(), right.label()))
    })
}

/// A snapshot whose id the table already has, with `main` asserted where it is, must be refused
/// and change nothing: the server's own duplicate-id check (`iceberg-snapshot-id`, patch 5). An
/// iceberg-rust writer never sends one (its own apply of the updates refuses the id first), so
/// only plain HTTP reaches it.
fn duplicate_snapshot_id(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let (s1, first) = table.append(None, None, None).await?;
        first.expect_ok("append")?;
        let metadata = table.metadata().await?;
        let mut again = metadata["snapshots"][0].clone();
        again["summary"]["barrier.epoch"] = json!("2");
        let updates = json!([{"action": "add-snapshot", "snapshot": again},
            {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch", "snapshot-id": s1}]);
        let answer = table.commit(json!([main_at(Some(s1))]), updates, None).await?;
        let after = table.metadata().await?;
        let snapshots = after["snapshots"].as_array().map_or(0, Vec::len);
        let epoch = after["snapshots"][0]["summary"]["barrier.epoch"].clone();
        if answer.ok() || snapshots != 1 || !epoch.is_null() {
            return Err(format!(
                "a duplicate snapshot id was not refused: {} {}; {snapshots} snapshot(s), the first's epoch {epoch}",
                answer.label(),
                excerpt(&answer.body)
            ));
        }
        Ok(format!("duplicate id: {} {}", answer.label(), excerpt(&answer.body)))
    })
}

/// The lost response a key can cover: the same commit resent with the same key after it landed.
/// A server that advertises `idempotency-key-lifetime` must answer it without executing it again;
/// one that does not refuses the resend on its stale requirement, and the writer cannot tell. Then
/// the hazard of a key reused with another body.
fn idempotency_key_resend(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let lifetime = &table.lifetime;
        if lifetime.is_some() != table.keys_expected {
            return Err(format!(
                "advertises {lifetime:?}, but its catalog profile says idempotency_keys: {}",
                table.keys_expected
            ));
        }
        let (s1, first) = table.append(None, None, None).await?;
        first.expect_ok("append")?;
        // The body is built once and sent twice, as a client resends a request.
        let (s2, body) = table.append_body(Some(s1), None).await?;
        let key = key();
        table.post(&table.url, &body, Some(&key)).await?.expect_ok("commit")?;
        let resend = table.post(&table.url, &body, Some(&key)).await?;
        let head = table.main().await?;
        if lifetime.is_some() && (!resend.ok() || head != Some(s2)) {
            return Err(format!(
                "advertised {lifetime:?}, but the resend answered {} and main is {head:?}",
                resend.status
            ));
        }
        // The same key with another body: a property the server only sets if it executes it.
        let other = table.commit(json!([]), set_property("p", "other body"), Some(&key)).await?;
        let executed = table.property("p").await?.is_some();
        Ok(format!(
            "lifetime advertised: {}; resend of a landed commit: {}; same key, another body: {} ({})",
            lifetime.as_deref().unwrap_or("none"),
            resend.label(),
            other.label(),
            if executed { "executed" } else { "not executed, answered as the first body was" }
        ))
    })
}

/// What a key cannot cover: a writer restarted after the swap rebuilds the commit of the same epoch
/// on the table it reloads and sends it with a new key. The server executes it: the epoch is in
/// the table twice. Only a check of the epoch on that table (the guarded arms) stops it.
fn idempotency_key_is_not_an_epoch_check(table: &Table) -> futures::future::BoxFuture<'_, Result<String, String>> {
    Box::pin(async move {
        let (s1, first) = table.append(None, Some(7), Some(&key())).await?;
        first.expect_ok("epoch 7")?;
        let (_, restarted) = table.append(Some(s1), Some(7), Some(&key())).await?;
        let metadata = table.metadata().await?;
        let copies = metadata["snapshots"]
            .as_array()
            .map_or(0, |s| s.iter().filter(|s| s["summary"]["barrier.epoch"] == "7").count());
        if copies != 2 {
            return Err(format!(
                "expected the restarted writer's new key to commit epoch 7 again, found {copies} copies"
            ));
        }
        Ok(format!("restarted writer, new key: {}; epoch 7 in the table {copies} times", restarted.label()))
    })
}

fn excerpt(body: &str) -> String {
    body.chars().take(120).collect()
}
