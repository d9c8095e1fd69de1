// kafkajs's ACL admin (test_acl.py): CreateAcls, DescribeAcls with an ANY
// filter, DeleteAcls; prints one JSON line with what it saw.
const fs = require('fs');
const {
  Kafka, logLevel, AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes,
} = require('kafkajs');

const spec = JSON.parse(fs.readFileSync(0, 'utf8'));

async function main() {
  const kafka = new Kafka({ clientId: 'tidemark-acls', brokers: spec.brokers, logLevel: logLevel.NOTHING,
    retry: { retries: 2 } });
  const admin = kafka.admin();
  await admin.connect();
  const any = { resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY,
    operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY };
  try {
    await admin.createAcls({ acl: [{
      resourceType: AclResourceTypes.TOPIC, resourceName: spec.prefix,
      resourcePatternType: ResourcePatternTypes.PREFIXED, principal: spec.principal, host: '*',
      operation: AclOperationTypes.WRITE, permissionType: AclPermissionTypes.ALLOW }] });
    const described = await admin.describeAcls(any);
    const deleted = await admin.deleteAcls({ filters: [any] });
    const after = await admin.describeAcls(any);
    console.log(JSON.stringify({
      described: described.resources,
      deleted: deleted.filterResponses.map((f) => f.matchingAcls.length),
      after: after.resources.length,
    }));
  } finally {
    await admin.disconnect();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
