import {
  ASSOCIATE_STATUSES,
  CURRENT_ACCOUNT_STATUSES,
  CURRENT_ACCOUNT_TYPES,
  DISABLED_REASONS,
  DOCUMENT_TYPES,
  MOVEMENT_SUBTYPES,
  MOVEMENT_TYPES,
  OPERATION_TYPES,
  OWNER_TYPES,
  RECEIVABLE_ACCOUNT_STATUSES,
  RECEIVABLE_STATUSES,
  RECEIVABLE_TYPES,
  REQUESTABLE_STATUSES,
} from '@rcs/domain';
import { openApiDocument } from '../src/openapi/document';

const { schemas: s } = openApiDocument.components;

/** Each closed list of the document, and the domain's list it must be: the same array, so a new value shows up in both. */
const lists: ReadonlyArray<[string, unknown, readonly unknown[]]> = [
  ['ClientInput.documentType', s.ClientInput.properties.documentType.enum, DOCUMENT_TYPES],
  ['Client.documentType', s.Client.properties.documentType.enum, DOCUMENT_TYPES],
  ['Associate.status', s.Associate.properties.status.enum, ASSOCIATE_STATUSES],
  ['ReceivableAccount.status', s.ReceivableAccount.properties.status.enum, RECEIVABLE_ACCOUNT_STATUSES],
  ['ReceivableInput.receivableType', s.ReceivableInput.properties.receivableType.enum, RECEIVABLE_TYPES],
  ['ReceivableStatusInput.status', s.ReceivableStatusInput.properties.status.enum, REQUESTABLE_STATUSES],
  ['Receivable.receivableType', s.Receivable.properties.receivableType.enum, RECEIVABLE_TYPES],
  ['Receivable.status', s.Receivable.properties.status.enum, RECEIVABLE_STATUSES],
  [
    'RouteSettlement.summary.byReceivableType.type',
    s.RouteSettlement.properties.summary.properties.byReceivableType.items.properties.type.enum,
    RECEIVABLE_TYPES,
  ],
  ['Movement.movementType', s.Movement.properties.movementType.enum, MOVEMENT_TYPES],
  ['Movement.operationType', s.Movement.properties.operationType.enum, OPERATION_TYPES],
  ['CurrentAccount.accountType', s.CurrentAccount.properties.accountType.enum, CURRENT_ACCOUNT_TYPES],
  ['CurrentAccount.status', s.CurrentAccount.properties.status.enum, CURRENT_ACCOUNT_STATUSES],
];

describe('the OpenAPI document', () => {
  it.each(lists)("lists in %s the domain's own values", (_where, listed, domain) => {
    expect(listed).toBe(domain);
  });

  it("lists the domain's values, or null, where a field may be absent", () => {
    expect(s.ReceivableAccount.properties.disabledReason.enum).toEqual([...DISABLED_REASONS, null]);
    expect(s.Movement.properties.subtype.enum).toEqual([...MOVEMENT_SUBTYPES, null]);
  });

  it('lists for a single owner every owner type but the pair', () => {
    const [single, pair] = s.ReceivableAccount.properties.owner.oneOf;
    expect([...single.properties.type.enum, pair.properties.type.const].sort()).toEqual([...OWNER_TYPES].sort());
  });
});
