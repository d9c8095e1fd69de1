//! DescribeConfigs, AlterConfigs and IncrementalAlterConfigs for topics,
//! the broker and groups (Kafka 4's group configs, `group_config.rs`).
//! Changes are persisted and applied live.

use std::collections::BTreeMap;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::alter_configs_response::AlterConfigsResourceResponse;
use kafka_protocol::generated::describe_configs_response::{
    DescribeConfigsResourceResult, DescribeConfigsResult, DescribeConfigsSynonym,
};
use kafka_protocol::generated::incremental_alter_configs_response::AlterConfigsResourceResponse as IncResponse;
use kafka_protocol::generated::{
    AlterConfigsRequest, AlterConfigsResponse, DescribeConfigsRequest, DescribeConfigsResponse,
    IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse,
};

use crate::acl::{Authz, op};
use crate::client_metrics::CLIENT_METRICS;
use crate::group_config::GROUP_CONFIGS;
use crate::settings::{
    BROKER_SETTINGS, KAFKA_BROKER_CONFIGS, KafkaType, LISTENER_ONLY_SECURITY_CONFIGS, SettingError,
    Source, TOPIC_CONFIGS, UpdateMode, broker_setting, kafka_broker_config,
};
use crate::shard::Shard;
use crate::topics::{ApiError, code_and_message, publish, reconfigure_topic, validate_configs};

pub const TOPIC: i8 = 2;
pub const BROKER: i8 = 4;
pub const BROKER_LOGGER: i8 = 8;
pub const GROUP: i8 = 32;

/// Kafka's ConfigSource of a group's own override (`GROUP_CONFIG`,
/// `ConfigEntry.ConfigSource.DYNAMIC_GROUP_CONFIG`).
const DYNAMIC_GROUP_CONFIG: i8 = 8;
/// Kafka's ConfigSource of a group config without an override: Kafka says
/// DEFAULT_CONFIG even when the value is a broker setting's.
const DEFAULT_CONFIG: i8 = 5;

/// Kafka's ConfigSource for a topic config that falls back to the broker.
/// Kafka's authorization of a config resource: topics against their
/// ACLs, broker resources against the cluster, groups against the group.
/// `Some(error)` when the requester may not do `operation` on it.
fn config_denied(
    authz: &Authz<'_>,
    resource_type: i8,
    name: &str,
    operation: i8,
) -> Option<ApiError> {
    let denied =
        |code: ErrorCode, what: &str| Some((code, format!("{what} authorization failed.")));
    match resource_type {
        TOPIC if !authz.topic(operation, name) => {
            denied(ErrorCode::TopicAuthorizationFailed, "Topic")
        }
        BROKER | BROKER_LOGGER if !authz.cluster(operation) => {
            denied(ErrorCode::ClusterAuthorizationFailed, "Cluster")
        }
        GROUP if !authz.group(operation, name) => {
            denied(ErrorCode::GroupAuthorizationFailed, "Group")
        }
        CLIENT_METRICS if !authz.cluster(operation) => {
            denied(ErrorCode::ClusterAuthorizationFailed, "Cluster")
        }
        _ => None,
    }
}

fn broker_source_for_topic(s: Source) -> i8 {
    s.kafka_code()
}

fn check_broker_name(shard: &Shard, name: &str) -> Result<(), ApiError> {
    if name.is_empty() || name == shard.ctx.config.node_id.to_string() {
        Ok(())
    } else {
        Err((
            ErrorCode::InvalidRequest,
            format!("unknown broker '{name}'"),
        ))
    }
}

/// The cluster-wide default resource (BROKER, name ""): as Kafka's
/// `ConfigHelper`, only the configs set as a dynamic cluster default,
/// with that value and source (DYNAMIC_DEFAULT_BROKER_CONFIG) and the
/// synonyms from that level down; a broker's own dynamic values are not
/// part of the default.
fn cluster_defaults_only(
    configs: &mut Vec<DescribeConfigsResourceResult>,
    settings: &crate::settings::Settings,
) {
    configs.retain_mut(|c| {
        let Some(v) = settings.dynamic_defaults().get(&c.name) else {
            return false;
        };
        if !c.is_sensitive {
            c.value = Some(v.clone());
        }
        c.config_source = Source::DynamicDefault.kafka_code();
        if !c.synonyms.is_empty() {
            // Synonyms were asked for: from the default level down.
            c.synonyms
                .retain(|s| s.source != Source::Dynamic.kafka_code());
            if !c
                .synonyms
                .iter()
                .any(|s| s.source == Source::DynamicDefault.kafka_code())
            {
                c.synonyms.insert(
                    0,
                    DescribeConfigsSynonym {
                        name: c.name.clone(),
                        value: c.value.clone(),
                        source: Source::DynamicDefault.kafka_code(),
                        ..Default::default()
                    },
                );
            }
        }
        true
    });
}

pub fn describe(
    shard: &Shard,
    req: DescribeConfigsRequest,
    version: i16,
    authz: &Authz<'_>,
) -> DescribeConfigsResponse {
    let meta = shard.metadata();
    let settings = &meta.settings;
    let mut results = Vec::with_capacity(req.resources.len());
    for r in req.resources {
        let mut out = DescribeConfigsResult {
            resource_type: r.resource_type,
            resource_name: r.resource_name.clone(),
            ..Default::default()
        };
        let wanted = |name: &str| {
            r.configuration_keys
                .as_ref()
                .is_none_or(|k| k.iter().any(|x| x == name))
        };
        let doc = |d: &str| (version >= 3 && req.include_documentation).then(|| d.to_string());
        if let Some((code, message)) = config_denied(
            authz,
            r.resource_type,
            &r.resource_name,
            op::DESCRIBE_CONFIGS,
        ) {
            out.error_code = code.code();
            out.error_message = Some(message);
            results.push(out);
            continue;
        }
        match r.resource_type {
            TOPIC => match meta.topic(&r.resource_name) {
                None => {
                    out.error_code = ErrorCode::UnknownTopicOrPartition.code();
                    out.error_message = Some(format!("topic '{}' does not exist", r.resource_name));
                }
                Some(t) => {
                    for d in TOPIC_CONFIGS.iter().filter(|d| wanted(d.name)) {
                        let Some((value, set)) = settings.topic_value(d.name, &t.configs) else {
                            continue;
                        };
                        // A config without a broker synonym falls back
                        // to its own default (DEFAULT_CONFIG).
                        let broker = d
                            .synonym()
                            .map(|b| (b, settings.get_with_source(b).unwrap_or_default_pair()));
                        let source = match (&broker, set) {
                            (_, true) => 1,
                            (Some((_, (_, bsrc))), false) => broker_source_for_topic(*bsrc),
                            (None, false) => DEFAULT_CONFIG,
                        };
                        let mut synonyms = Vec::new();
                        if req.include_synonyms {
                            if set {
                                synonyms.push(DescribeConfigsSynonym {
                                    name: d.name.to_string(),
                                    value: Some(value.clone()),
                                    source: 1,
                                    ..Default::default()
                                });
                            }
                            match broker {
                                Some((b, (bval, bsrc))) => {
                                    synonyms.push(DescribeConfigsSynonym {
                                        name: b.to_string(),
                                        value: Some(bval),
                                        source: broker_source_for_topic(bsrc),
                                        ..Default::default()
                                    });
                                }
                                None if !set => synonyms.push(DescribeConfigsSynonym {
                                    name: d.name.to_string(),
                                    value: Some(value.clone()),
                                    source: DEFAULT_CONFIG,
                                    ..Default::default()
                                }),
                                None => {}
                            }
                        }
                        out.configs.push(DescribeConfigsResourceResult {
                            name: d.name.to_string(),
                            value: Some(value),
                            read_only: false,
                            config_source: source,
                            is_sensitive: false,
                            synonyms,
                            config_type: d.ty.kafka_code(),
                            documentation: doc(d.doc),
                            ..Default::default()
                        });
                    }
                }
            },
            BROKER => match check_broker_name(shard, &r.resource_name) {
                Err((c, m)) => {
                    out.error_code = c.code();
                    out.error_message = Some(m);
                }
                Ok(()) => {
                    for d in BROKER_SETTINGS.iter().filter(|d| wanted(d.name)) {
                        let (value, src) =
                            settings.get_with_source(d.name).unwrap_or_default_pair();
                        let kafka = kafka_broker_config(d.name);
                        let mut entry = DescribeConfigsResourceResult {
                            // The keystore settings change with a listener
                            // prefix: not read-only, as Kafka shows them.
                            read_only: !d.dynamic
                                && !LISTENER_ONLY_SECURITY_CONFIGS.contains(&d.name),
                            // Kafka's type where the name is Kafka's (a SHORT,
                            // an INT Tidemark reads as a long).
                            config_type: kafka.map_or(d.ty.kafka_code(), |c| c.ty.kafka_code()),
                            documentation: doc(d.doc),
                            ..one_layer_entry(d.name, value, src, req.include_synonyms)
                        };
                        // A password is never sent back (Kafka: null value).
                        if kafka.is_some_and(|c| c.ty == KafkaType::Password) {
                            hide_value(&mut entry);
                        }
                        out.configs.push(entry);
                    }
                    // Kafka's other broker configs: the value in force
                    // (set, else Kafka's default), flagged as Kafka flags it.
                    let config = &shard.ctx.config;
                    for c in KAFKA_BROKER_CONFIGS
                        .iter()
                        .filter(|c| broker_setting(c.name).is_none() && wanted(c.name))
                    {
                        let fixed = match c.name {
                            "node.id" | "broker.id" => Some(config.node_id.to_string()),
                            "broker.rack" => config.cluster.as_ref().and_then(|c| c.rack.clone()),
                            _ => None,
                        };
                        let mut layers = match fixed {
                            Some(v) => vec![(v, Source::Static)],
                            None => settings.layers(c.name),
                        };
                        if let Some(d) = c.default {
                            layers.push((d.to_string(), Source::Default));
                        }
                        let sensitive = c.ty == KafkaType::Password;
                        // A password is never sent back (Kafka: null value).
                        let shown = |v: &str| (!sensitive).then(|| v.to_string());
                        let (value, src) = match layers.first() {
                            Some((v, s)) => (shown(v), *s),
                            None => (None, Source::Default),
                        };
                        let synonyms = if req.include_synonyms {
                            layers
                                .iter()
                                .map(|(v, s)| DescribeConfigsSynonym {
                                    name: c.name.to_string(),
                                    value: shown(v),
                                    source: s.kafka_code(),
                                    ..Default::default()
                                })
                                .collect()
                        } else {
                            Vec::new()
                        };
                        out.configs.push(DescribeConfigsResourceResult {
                            name: c.name.to_string(),
                            value,
                            read_only: c.mode == UpdateMode::ReadOnly,
                            config_source: src.kafka_code(),
                            is_sensitive: sensitive,
                            synonyms,
                            config_type: c.ty.kafka_code(),
                            documentation: doc(c.doc),
                            ..Default::default()
                        });
                    }
                    // Per-listener settings (Kafka lists a broker's
                    // original configs, prefixed ones included, and its
                    // dynamic ones). Only the certificate files and the
                    // key's password change at run time, as in Kafka; a
                    // password is never sent back.
                    for (key, value, src) in settings
                        .listener_settings()
                        .into_iter()
                        .filter(|(k, _, _)| wanted(k))
                    {
                        let Some((setting, def)) = crate::settings::listener_prefixed(&key)
                            .and_then(|(_, setting)| Some((setting, broker_setting(setting)?)))
                        else {
                            continue;
                        };
                        let mut entry = DescribeConfigsResourceResult {
                            read_only: !crate::settings::DYNAMIC_PER_LISTENER_SETTINGS
                                .contains(&setting),
                            config_type: def.ty.kafka_code(),
                            documentation: doc(def.doc),
                            ..one_layer_entry(&key, value, src, req.include_synonyms)
                        };
                        if kafka_broker_config(setting).is_some_and(|c| c.ty == KafkaType::Password)
                        {
                            entry.config_type = KafkaType::Password.kafka_code();
                            hide_value(&mut entry);
                        }
                        out.configs.push(entry);
                    }
                    if r.resource_name.is_empty() {
                        cluster_defaults_only(&mut out.configs, settings);
                    }
                }
            },
            GROUP if r.resource_name.is_empty() => {
                out.error_code = ErrorCode::InvalidRequest.code();
                out.error_message = Some("Group name must not be empty".into());
            }
            // Every group has configs, whether it exists or not (Kafka).
            GROUP => {
                let overrides = meta.group_configs.get(&r.resource_name);
                for d in GROUP_CONFIGS.iter().filter(|d| wanted(d.name)) {
                    let (value, source) = match overrides.and_then(|m| m.get(d.name)) {
                        Some(v) => (v.clone(), DYNAMIC_GROUP_CONFIG),
                        None => (
                            crate::group_config::default_value(settings, d),
                            DEFAULT_CONFIG,
                        ),
                    };
                    // Kafka's one synonym: the entry itself.
                    let synonyms = if req.include_synonyms {
                        vec![DescribeConfigsSynonym {
                            name: d.name.to_string(),
                            value: Some(value.clone()),
                            source,
                            ..Default::default()
                        }]
                    } else {
                        Vec::new()
                    };
                    out.configs.push(DescribeConfigsResourceResult {
                        name: d.name.to_string(),
                        value: Some(value),
                        read_only: false,
                        config_source: source,
                        is_sensitive: false,
                        synonyms,
                        config_type: d.ty.kafka_code(),
                        documentation: doc(d.doc),
                        ..Default::default()
                    });
                }
            }
            CLIENT_METRICS => match crate::client_metrics::describe(
                &meta.client_metrics,
                &r.resource_name,
                &wanted,
                req.include_synonyms,
                version >= 3 && req.include_documentation,
            ) {
                Ok(configs) => out.configs = configs,
                Err((code, message)) => {
                    out.error_code = code.code();
                    out.error_message = Some(message);
                }
            },
            BROKER_LOGGER => {
                out.error_code = ErrorCode::InvalidRequest.code();
                out.error_message = Some("broker logger configs are not supported".into());
            }
            other => {
                out.error_code = ErrorCode::InvalidRequest.code();
                out.error_message = Some(format!("unknown resource type {other}"));
            }
        }
        results.push(out);
    }
    DescribeConfigsResponse {
        results,
        ..Default::default()
    }
}

trait DefaultPair {
    fn unwrap_or_default_pair(self) -> (String, Source);
}

impl DefaultPair for Option<(String, Source)> {
    fn unwrap_or_default_pair(self) -> (String, Source) {
        self.unwrap_or((String::new(), Source::Default))
    }
}

/// A change to one resource, computed from the current state.
enum Change {
    Topic {
        name: String,
        configs: BTreeMap<String, String>,
    },
    Broker {
        dynamics: BTreeMap<String, String>,
        cluster_default: bool,
    },
}

/// Checks a broker's (or, with `cluster_default`, the cluster-wide)
/// dynamic settings as they would be after a change.
fn validate_broker_dynamics(
    dynamics: &BTreeMap<String, String>,
    cluster_default: bool,
    now: &crate::settings::Settings,
) -> Result<(), ApiError> {
    let mut s = crate::settings::Settings::default();
    for (k, v) in dynamics {
        if broker_setting(k).is_none()
            && kafka_broker_config(k).is_none()
            && crate::settings::listener_prefixed(k).is_none()
        {
            return Err((
                ErrorCode::InvalidConfig,
                format!("unknown broker setting '{k}'"),
            ));
        }
        let set = if cluster_default {
            s.set_dynamic_default(k, Some(v))
        } else {
            s.set_dynamic(k, Some(v))
        };
        set.map_err(|e| {
            // Kafka's ConfigAdminManager turns the update-mode refusals
            // (`DynamicBrokerConfig.validateConfigs`) into
            // InvalidRequestException, a read-only config's included
            // (KAFKA-13609 proposed INVALID_CONFIG and was not merged);
            // a bad value is INVALID_CONFIG.
            let code = match e {
                SettingError::ReadOnly(_)
                | SettingError::PerBrokerOnly(_)
                | SettingError::ListenerPrefixOnly(_) => ErrorCode::InvalidRequest,
                _ => ErrorCode::InvalidConfig,
            };
            (code, e.to_string())
        })?;
    }
    // A listener's certificate settings are checked together, as they
    // will be after the change (a new encrypted key comes with its
    // password in the same request).
    let after = now.with_dynamics(dynamics.clone(), cluster_default);
    after
        .check_combinations()
        .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))?;
    if !cluster_default {
        let listeners: std::collections::BTreeSet<String> = now
            .dynamics()
            .keys()
            .chain(dynamics.keys())
            .filter_map(|k| crate::settings::listener_prefixed(k))
            .map(|(listener, _)| listener.to_ascii_lowercase())
            .collect();
        for listener in listeners {
            check_listener_certificates(now, &after, &listener)?;
        }
    }
    Ok(())
}

/// A password's entry: sensitive, with no value in it or its synonyms
/// (Kafka's null value).
fn hide_value(entry: &mut DescribeConfigsResourceResult) {
    entry.is_sensitive = true;
    entry.value = None;
    for syn in &mut entry.synonyms {
        syn.value = None;
    }
}

/// A described broker setting whose value comes from one layer (`src`),
/// with that layer as its only synonym when synonyms are asked for; the
/// caller sets the read-only flag, type and documentation.
fn one_layer_entry(
    name: &str,
    value: String,
    src: Source,
    include_synonyms: bool,
) -> DescribeConfigsResourceResult {
    let synonyms = if include_synonyms {
        vec![DescribeConfigsSynonym {
            name: name.to_string(),
            value: Some(value.clone()),
            source: src.kafka_code(),
            ..Default::default()
        }]
    } else {
        Vec::new()
    };
    DescribeConfigsResourceResult {
        name: name.to_string(),
        value: Some(value),
        config_source: src.kafka_code(),
        is_sensitive: false,
        synonyms,
        ..Default::default()
    }
}

/// A listener's certificate settings as they will be (`after`), before
/// they are taken (Kafka validates a reconfigured SSL factory first):
/// a new truststore must load; a new keystore, or a new
/// `ssl.key.password`, must give a keystore whose key loads with that
/// password, presenting the same subject and subject alternative names
/// as the one in use unless `ssl.allow.dn.changes` /
/// `ssl.allow.san.changes`. Kafka answers a failed validation with
/// INVALID_REQUEST (`ConfigAdminManager.validateBrokerConfigChange`,
/// KAFKA-13609). No error names the password.
fn check_listener_certificates(
    now: &crate::settings::Settings,
    after: &crate::settings::Settings,
    listener: &str,
) -> Result<(), ApiError> {
    let refuse = |why: String| {
        (
            ErrorCode::InvalidRequest,
            format!("Validation of dynamic config update of SSLFactory failed: {why}"),
        )
    };
    let (new, old) = (
        crate::tls::wanted_in(after, Some(listener)),
        crate::tls::wanted_in(now, Some(listener)),
    );
    if let Some(truststore) = &new.truststore
        && new.truststore != old.truststore
    {
        crate::tls::check_truststore(truststore).map_err(|e| refuse(e.to_string()))?;
    }
    if new.keystore == old.keystore && new.key_password == old.key_password {
        return Ok(());
    }
    let (subject, sans) = crate::tls::keystore_identity(&new.keystore, new.key_password.as_deref())
        .map_err(|e| refuse(e.to_string()))?;
    let Ok((old_subject, old_sans)) =
        crate::tls::keystore_identity(&old.keystore, old.key_password.as_deref())
    else {
        // Nothing loadable in use to compare with.
        return Ok(());
    };
    if subject != old_subject && !after.bool("ssl.allow.dn.changes") {
        return Err(refuse(format!(
            "Keystore DistinguishedName does not match: existing={old_subject}, new={subject}"
        )));
    }
    if sans != old_sans && !after.bool("ssl.allow.san.changes") {
        return Err(refuse(format!(
            "Keystore SubjectAltNames do not match: existing={old_sans:?}, new={sans:?}"
        )));
    }
    Ok(())
}

/// Topic `name` as it is now, with `configs` as its overrides.
fn with_configs(
    s0: &Shard,
    name: &str,
    configs: BTreeMap<String, String>,
) -> Result<crate::metadata::TopicMeta, ApiError> {
    let mut t = s0.metadata().topic(name).cloned().ok_or_else(|| {
        (
            ErrorCode::UnknownTopicOrPartition,
            format!("topic '{name}' does not exist"),
        )
    })?;
    t.configs = configs;
    Ok(t)
}

/// Applies a validated change on shard 0: persist, publish, reconfigure.
async fn apply(shard: &Rc<Shard>, change: Change) -> Result<(), ApiError> {
    shard
        .submit_to(0, move |s0| async move {
            let _guard = s0.admin_lock.lock().await;
            if let Some(c) = s0.controller() {
                // Cluster mode: the controller log carries the change to
                // every broker, which reconfigures its own replicas.
                let cmd = match change {
                    Change::Topic { name, configs } => crate::metadata::Command::UpdateTopic {
                        topic: with_configs(&s0, &name, configs)?,
                    },
                    Change::Broker {
                        dynamics,
                        cluster_default,
                    } => crate::metadata::Command::SetDynamicSettings {
                        settings: dynamics,
                        cluster_default,
                        node: Some(s0.ctx.config.node_id),
                    },
                };
                return c.submit(cmd).await.map(|_| ());
            }
            match change {
                Change::Topic { name, configs } => {
                    let t = with_configs(&s0, &name, configs)?;
                    s0.with_store(|st| st.update_topic(t.clone()))
                        .ok_or((ErrorCode::NotController, "no metadata store".to_string()))?
                        .map_err(|e| (ErrorCode::KafkaStorageError, e.to_string()))?;
                    publish(&s0).await;
                    reconfigure_topic(&s0, &t).await;
                }
                Change::Broker {
                    dynamics,
                    cluster_default,
                } => {
                    let before = s0.metadata();
                    s0.with_store(|st| st.set_dynamic_settings(dynamics, cluster_default))
                        .ok_or((ErrorCode::NotController, "no metadata store".to_string()))?
                        .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))?;
                    publish(&s0).await;
                    // Topics that follow a changed broker default pick it up.
                    let after = s0.metadata();
                    for t in after.topics.values() {
                        if crate::topics::configs_in_force_changed(
                            &before.settings,
                            t,
                            &after.settings,
                            t,
                        ) {
                            reconfigure_topic(&s0, t).await;
                        }
                    }
                }
            }
            Ok(())
        })
        .await
        .unwrap_or_else(|_| {
            Err((
                ErrorCode::KafkaStorageError,
                "broker is shutting down".into(),
            ))
        })
}

/// Computes the full new config set of a resource, validates it, and
/// applies it unless `validate_only`.
async fn alter_resource(
    shard: &Rc<Shard>,
    authz: &Authz<'_>,
    resource_type: i8,
    resource_name: &str,
    validate_only: bool,
    edit: impl FnOnce(&mut BTreeMap<String, String>) -> Result<(), ApiError>,
) -> Result<(), ApiError> {
    if let Some(denied) = config_denied(authz, resource_type, resource_name, op::ALTER_CONFIGS) {
        return Err(denied);
    }
    let meta = shard.metadata();
    let change = match resource_type {
        TOPIC => {
            let t = meta.topic(resource_name).ok_or_else(|| {
                (
                    ErrorCode::UnknownTopicOrPartition,
                    format!("topic '{resource_name}' does not exist"),
                )
            })?;
            let mut configs = t.configs.clone();
            edit(&mut configs)?;
            validate_configs(&meta.settings, &configs)?;
            Change::Topic {
                name: t.name.clone(),
                configs,
            }
        }
        BROKER => {
            check_broker_name(shard, resource_name)?;
            // "" is the cluster-wide default; a node id is that broker.
            let cluster_default = resource_name.is_empty();
            let mut dynamics = if cluster_default {
                meta.settings.dynamic_defaults().clone()
            } else {
                meta.settings.dynamics().clone()
            };
            edit(&mut dynamics)?;
            validate_broker_dynamics(&dynamics, cluster_default, &meta.settings)?;
            if !cluster_default {
                // Kafka's `DynamicListenerConfig.validateReconfiguration`:
                // its refusal reaches the client as INVALID_REQUEST
                // (`ConfigAdminManager`, KAFKA-13609).
                let after = meta.settings.with_dynamics(dynamics.clone(), false);
                shard
                    .ctx
                    .listeners
                    .check_change(&meta.settings, &after)
                    .map_err(|why| {
                        (
                            ErrorCode::InvalidRequest,
                            format!("Invalid dynamic configuration: {why}"),
                        )
                    })?;
            }
            Change::Broker {
                dynamics,
                cluster_default,
            }
        }
        GROUP => {
            if resource_name.is_empty() {
                return Err((
                    ErrorCode::InvalidRequest,
                    "Default group resources are not allowed.".into(),
                ));
            }
            let mut configs = meta
                .group_configs
                .get(resource_name)
                .cloned()
                .unwrap_or_default();
            edit(&mut configs)?;
            crate::group_config::validate(&meta.settings, &configs)
                .map_err(|e| (ErrorCode::InvalidConfig, e.to_string()))?;
            if validate_only {
                return Ok(());
            }
            // The whole effect is a metadata change: one command, through
            // the controller log or metadata.json like ACL changes.
            let cmd = crate::metadata::Command::SetGroupConfigs {
                group: resource_name.to_string(),
                configs,
            };
            return crate::admin::submit(shard, cmd).await.map(|_| ());
        }
        CLIENT_METRICS => {
            let cmd = crate::client_metrics::alter(&meta.client_metrics, resource_name, edit)?;
            if validate_only {
                return Ok(());
            }
            return crate::admin::submit(shard, cmd).await.map(|_| ());
        }
        BROKER_LOGGER => {
            return Err((
                ErrorCode::InvalidRequest,
                "broker logger configs are not supported".into(),
            ));
        }
        other => {
            return Err((
                ErrorCode::InvalidRequest,
                format!("unknown resource type {other}"),
            ));
        }
    };
    if validate_only {
        return Ok(());
    }
    apply(shard, change).await
}

pub async fn alter(
    shard: &Rc<Shard>,
    req: AlterConfigsRequest,
    authz: &Authz<'_>,
) -> AlterConfigsResponse {
    let mut responses = Vec::with_capacity(req.resources.len());
    for r in req.resources {
        // AlterConfigs replaces the whole set: anything not named reverts
        // to its default.
        let configs = r.configs.clone();
        let outcome = alter_resource(
            shard,
            authz,
            r.resource_type,
            &r.resource_name,
            req.validate_only,
            move |m| {
                m.clear();
                for c in configs {
                    match c.value {
                        Some(v) => {
                            m.insert(c.name, v);
                        }
                        None => {
                            return Err((
                                ErrorCode::InvalidConfig,
                                format!("config '{}' has a null value", c.name),
                            ));
                        }
                    }
                }
                Ok(())
            },
        )
        .await;
        let (error_code, error_message) = code_and_message(outcome);
        responses.push(AlterConfigsResourceResponse {
            error_code,
            error_message,
            resource_type: r.resource_type,
            resource_name: r.resource_name,
            ..Default::default()
        });
    }
    AlterConfigsResponse {
        responses,
        ..Default::default()
    }
}

/// Configs whose values are comma-separated lists (Kafka's LIST type):
/// APPEND and SUBTRACT apply only to these.
fn is_list(name: &str) -> bool {
    crate::settings::topic_config(name)
        .map(|d| d.ty)
        .or_else(|| broker_setting(name).map(|d| d.ty))
        .or_else(|| kafka_broker_config(name).map(|c| c.ty.value_type()))
        == Some(crate::settings::ValueType::List)
        || crate::client_metrics::is_list(name)
}

pub async fn incremental_alter(
    shard: &Rc<Shard>,
    req: IncrementalAlterConfigsRequest,
    authz: &Authz<'_>,
) -> IncrementalAlterConfigsResponse {
    let mut responses = Vec::with_capacity(req.resources.len());
    for r in req.resources {
        let ops = r.configs.clone();
        let defaults = shard.metadata().settings.clone();
        let rtype = r.resource_type;
        let outcome = alter_resource(
            shard,
            authz,
            r.resource_type,
            &r.resource_name,
            req.validate_only,
            move |m| {
                let mut seen = std::collections::HashSet::new();
                for c in ops {
                    if !seen.insert(c.name.clone()) {
                        return Err((
                            ErrorCode::InvalidConfig,
                            format!("config '{}' is changed twice", c.name),
                        ));
                    }
                    let current = |m: &BTreeMap<String, String>| {
                        m.get(&c.name).cloned().or_else(|| {
                            if rtype == TOPIC {
                                defaults
                                    .topic_value(&c.name, &BTreeMap::new())
                                    .map(|(v, _)| v)
                            } else {
                                defaults.get_with_source(&c.name).map(|(v, _)| v)
                            }
                        })
                    };
                    match c.config_operation {
                        0 => {
                            let v = c.value.ok_or_else(|| {
                                (
                                    ErrorCode::InvalidConfig,
                                    format!("SET of '{}' needs a value", c.name),
                                )
                            })?;
                            m.insert(c.name, v);
                        }
                        1 => {
                            m.remove(&c.name);
                        }
                        op @ (2 | 3) => {
                            if !is_list(&c.name) {
                                return Err((
                                    ErrorCode::InvalidConfig,
                                    format!(
                                        "'{}' is not a list; APPEND and SUBTRACT do not apply",
                                        c.name
                                    ),
                                ));
                            }
                            let v = c.value.clone().unwrap_or_default();
                            let mut items: Vec<String> = current(m)
                                .unwrap_or_default()
                                .split(',')
                                .map(|s| s.trim().to_string())
                                .filter(|s| !s.is_empty())
                                .collect();
                            for x in v.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()) {
                                if op == 2 {
                                    if !items.iter().any(|i| i == x) {
                                        items.push(x.to_string());
                                    }
                                } else {
                                    items.retain(|i| i != x);
                                }
                            }
                            m.insert(c.name, items.join(","));
                        }
                        other => {
                            return Err((
                                ErrorCode::InvalidRequest,
                                format!("unknown config operation {other}"),
                            ));
                        }
                    }
                }
                Ok(())
            },
        )
        .await;
        let (error_code, error_message) = code_and_message(outcome);
        responses.push(IncResponse {
            error_code,
            error_message,
            resource_type: r.resource_type,
            resource_name: r.resource_name,
            ..Default::default()
        });
    }
    IncrementalAlterConfigsResponse {
        responses,
        ..Default::default()
    }
}
