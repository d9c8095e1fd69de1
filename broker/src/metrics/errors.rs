//! The error codes a response carries, as Kafka's `AbstractResponse.errorCounts()`
//! counts them: one per failed partition, topic, group or member, plus the
//! top-level code. Kafka's `ErrorsPerSec` metric is built from the same
//! count. Covered: the data path (Produce, Fetch, ListOffsets,
//! OffsetForLeaderEpoch, Metadata), groups and commits, topic admin,
//! producer ids and transactions, ApiVersions and SASL; any other API's
//! errors are not broken down (its requests and latency still count).

use kafka_protocol::ResponseBody;

/// The codes other than NONE in `resp`, appended to `out`.
pub fn error_codes(resp: &ResponseBody, out: &mut Vec<i16>) {
    let mut add = |c: i16| {
        if c != 0 {
            out.push(c);
        }
    };
    match resp {
        ResponseBody::Produce(r) => r
            .responses
            .iter()
            .flat_map(|t| &t.partition_responses)
            .for_each(|p| add(p.error_code)),
        ResponseBody::Fetch(r) => {
            add(r.error_code);
            r.responses
                .iter()
                .flat_map(|t| &t.partitions)
                .for_each(|p| add(p.error_code));
        }
        ResponseBody::ListOffsets(r) => r
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .for_each(|p| add(p.error_code)),
        ResponseBody::OffsetForLeaderEpoch(r) => r
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .for_each(|p| add(p.error_code)),
        ResponseBody::Metadata(r) => {
            add(r.error_code);
            for t in &r.topics {
                add(t.error_code);
                t.partitions.iter().for_each(|p| add(p.error_code));
            }
        }
        ResponseBody::OffsetCommit(r) => r
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .for_each(|p| add(p.error_code)),
        ResponseBody::TxnOffsetCommit(r) => r
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .for_each(|p| add(p.error_code)),
        ResponseBody::OffsetFetch(r) => {
            add(r.error_code);
            r.topics
                .iter()
                .flat_map(|t| &t.partitions)
                .for_each(|p| add(p.error_code));
            for g in &r.groups {
                add(g.error_code);
                g.topics
                    .iter()
                    .flat_map(|t| &t.partitions)
                    .for_each(|p| add(p.error_code));
            }
        }
        ResponseBody::FindCoordinator(r) => {
            add(r.error_code);
            r.coordinators.iter().for_each(|c| add(c.error_code));
        }
        ResponseBody::JoinGroup(r) => add(r.error_code),
        ResponseBody::SyncGroup(r) => add(r.error_code),
        ResponseBody::Heartbeat(r) => add(r.error_code),
        ResponseBody::LeaveGroup(r) => {
            add(r.error_code);
            r.members.iter().for_each(|m| add(m.error_code));
        }
        ResponseBody::DescribeGroups(r) => r.groups.iter().for_each(|g| add(g.error_code)),
        ResponseBody::ListGroups(r) => add(r.error_code),
        ResponseBody::CreateTopics(r) => r.topics.iter().for_each(|t| add(t.error_code)),
        ResponseBody::DeleteTopics(r) => r.responses.iter().for_each(|t| add(t.error_code)),
        ResponseBody::CreatePartitions(r) => r.results.iter().for_each(|t| add(t.error_code)),
        ResponseBody::DeleteRecords(r) => r
            .topics
            .iter()
            .flat_map(|t| &t.partitions)
            .for_each(|p| add(p.error_code)),
        ResponseBody::InitProducerId(r) => add(r.error_code),
        ResponseBody::AddOffsetsToTxn(r) => add(r.error_code),
        ResponseBody::EndTxn(r) => add(r.error_code),
        ResponseBody::ApiVersions(r) => add(r.error_code),
        ResponseBody::SaslHandshake(r) => add(r.error_code),
        ResponseBody::SaslAuthenticate(r) => add(r.error_code),
        _ => {}
    }
}
