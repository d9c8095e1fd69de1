//! CreateAcls, DescribeAcls and DeleteAcls (Kafka's `AclApis`): ALTER on
//! the cluster to change ACLs, DESCRIBE on the cluster to list them;
//! SECURITY_DISABLED when no authorizer is configured.

use std::collections::BTreeMap;
use std::rc::Rc;

use kafka_protocol::ErrorCode;
use kafka_protocol::generated::{
    CreateAclsRequest, CreateAclsResponse, DeleteAclsRequest, DeleteAclsResponse,
    DescribeAclsRequest, DescribeAclsResponse,
    create_acls_response::AclCreationResult,
    delete_acls_response::{DeleteAclsFilterResult, DeleteAclsMatchingAcl},
    describe_acls_response::{AclDescription, DescribeAclsResource},
};

use crate::acl::{AclBinding, AclEntry, AclFilter, Authz, op};
use crate::metadata::{Command, Outcome};
use crate::shard::Shard;

/// Why an ACL request is refused before it is looked at: no authorizer
/// (SECURITY_DISABLED), or `operation` not allowed on the cluster.
fn refused(authz: &Authz<'_>, operation: i8) -> Option<(ErrorCode, &'static str)> {
    if !authz.enabled() {
        Some((ErrorCode::SecurityDisabled, "No Authorizer is configured."))
    } else if !authz.cluster(operation) {
        Some((
            ErrorCode::ClusterAuthorizationFailed,
            "Cluster authorization failed.",
        ))
    } else {
        None
    }
}

pub async fn create(
    shard: &Rc<Shard>,
    r: CreateAclsRequest,
    authz: &Authz<'_>,
) -> CreateAclsResponse {
    let fail = |code: ErrorCode, msg: &str| CreateAclsResponse {
        results: r
            .creations
            .iter()
            .map(|_| AclCreationResult {
                error_code: code.code(),
                error_message: Some(msg.to_string()),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    if let Some((code, msg)) = refused(authz, op::ALTER) {
        return fail(code, msg);
    }
    let mut results: Vec<AclCreationResult> = Vec::with_capacity(r.creations.len());
    let mut valid = Vec::new();
    for c in &r.creations {
        let b = AclBinding {
            resource_type: c.resource_type,
            name: c.resource_name.clone(),
            pattern_type: c.resource_pattern_type,
            entry: AclEntry {
                principal: c.principal.clone(),
                host: c.host.clone(),
                operation: c.operation,
                permission: c.permission_type,
            },
        };
        match crate::acl::validate(&b) {
            Ok(()) => {
                valid.push(b);
                results.push(AclCreationResult::default());
            }
            Err(e) => results.push(AclCreationResult {
                error_code: ErrorCode::InvalidRequest.code(),
                error_message: Some(e.0),
                ..Default::default()
            }),
        }
    }
    if !valid.is_empty()
        && let Err((code, msg)) =
            crate::admin::submit(shard, Command::CreateAcls { acls: valid }).await
    {
        for res in results.iter_mut().filter(|x| x.error_code == 0) {
            res.error_code = code.code();
            res.error_message = Some(msg.clone());
        }
    }
    CreateAclsResponse {
        results,
        ..Default::default()
    }
}

fn filter_of(
    resource_type: i8,
    name: &Option<String>,
    pattern_type: i8,
    principal: &Option<String>,
    host: &Option<String>,
    operation: i8,
    permission: i8,
) -> AclFilter {
    AclFilter {
        resource_type,
        name: name.clone(),
        pattern_type,
        principal: principal.clone(),
        host: host.clone(),
        operation,
        permission,
    }
}

pub fn describe(
    shard: &Rc<Shard>,
    r: DescribeAclsRequest,
    authz: &Authz<'_>,
) -> DescribeAclsResponse {
    let error = |code: ErrorCode, msg: String| DescribeAclsResponse {
        error_code: code.code(),
        error_message: Some(msg),
        ..Default::default()
    };
    if let Some((code, msg)) = refused(authz, op::DESCRIBE) {
        return error(code, msg.into());
    }
    let f = filter_of(
        r.resource_type_filter,
        &r.resource_name_filter,
        r.pattern_type_filter,
        &r.principal_filter,
        &r.host_filter,
        r.operation,
        r.permission_type,
    );
    if let Err(e) = f.validate() {
        return error(ErrorCode::InvalidRequest, e.0);
    }
    let meta = shard.metadata();
    let mut by_resource: BTreeMap<(i8, String, i8), Vec<AclDescription>> = BTreeMap::new();
    for b in meta.acls.iter().filter(|b| f.matches(b)) {
        by_resource
            .entry((b.resource_type, b.name.clone(), b.pattern_type))
            .or_default()
            .push(AclDescription {
                principal: b.entry.principal,
                host: b.entry.host,
                operation: b.entry.operation,
                permission_type: b.entry.permission,
                ..Default::default()
            });
    }
    DescribeAclsResponse {
        resources: by_resource
            .into_iter()
            .map(
                |((resource_type, resource_name, pattern_type), acls)| DescribeAclsResource {
                    resource_type,
                    resource_name,
                    pattern_type,
                    acls,
                    ..Default::default()
                },
            )
            .collect(),
        ..Default::default()
    }
}

pub async fn delete(
    shard: &Rc<Shard>,
    r: DeleteAclsRequest,
    authz: &Authz<'_>,
) -> DeleteAclsResponse {
    let fail = |code: ErrorCode, msg: &str| DeleteAclsResponse {
        filter_results: r
            .filters
            .iter()
            .map(|_| DeleteAclsFilterResult {
                error_code: code.code(),
                error_message: Some(msg.to_string()),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    if let Some((code, msg)) = refused(authz, op::ALTER) {
        return fail(code, msg);
    }
    let mut results: Vec<Option<DeleteAclsFilterResult>> = Vec::with_capacity(r.filters.len());
    let mut filters = Vec::new();
    for x in &r.filters {
        let f = filter_of(
            x.resource_type_filter,
            &x.resource_name_filter,
            x.pattern_type_filter,
            &x.principal_filter,
            &x.host_filter,
            x.operation,
            x.permission_type,
        );
        match f.validate() {
            Ok(()) => {
                filters.push(f);
                results.push(None);
            }
            Err(e) => results.push(Some(DeleteAclsFilterResult {
                error_code: ErrorCode::InvalidRequest.code(),
                error_message: Some(e.0),
                ..Default::default()
            })),
        }
    }
    let outcome = if filters.is_empty() {
        Ok(Vec::new())
    } else {
        match crate::admin::submit(shard, Command::DeleteAcls { filters }).await {
            Ok(Outcome::AclsDeleted { deleted }) => Ok(deleted),
            Ok(_) => Err((
                ErrorCode::UnknownServerError,
                "unexpected outcome".to_string(),
            )),
            Err(e) => Err(e),
        }
    };
    let mut deleted = match &outcome {
        Ok(d) => d.clone().into_iter(),
        Err(_) => Vec::new().into_iter(),
    };
    let filter_results = results
        .into_iter()
        .map(|res| {
            if let Some(res) = res {
                return res;
            }
            match &outcome {
                Err((code, msg)) => DeleteAclsFilterResult {
                    error_code: code.code(),
                    error_message: Some(msg.clone()),
                    ..Default::default()
                },
                Ok(_) => DeleteAclsFilterResult {
                    matching_acls: deleted
                        .next()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|b| DeleteAclsMatchingAcl {
                            resource_type: b.resource_type,
                            resource_name: b.name,
                            pattern_type: b.pattern_type,
                            principal: b.entry.principal,
                            host: b.entry.host,
                            operation: b.entry.operation,
                            permission_type: b.entry.permission,
                            ..Default::default()
                        })
                        .collect(),
                    ..Default::default()
                },
            }
        })
        .collect();
    DeleteAclsResponse {
        filter_results,
        ..Default::default()
    }
}
