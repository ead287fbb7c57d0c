/** The receivable every HTTP measurement posts, baseline (b) included: about 600 bytes of JSON. */
export const receivableBody = (accountId: number) =>
  JSON.stringify({
    receivableAccountId: accountId,
    amount: 1234.5,
    currencyCode: 'ARS',
    receivableType: 'INVOICE',
    description: 'Factura de marzo: '.padEnd(480, 'x'),
    dueDate: '2026-12-31',
  });
