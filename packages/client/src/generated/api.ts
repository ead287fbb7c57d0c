// Generated from the served OpenAPI document by `npm run generate -w packages/client`: do not edit.

export interface paths {
  '/v1/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a bearer token
     * @description Exchanges a credential's clientId and clientSecret for a bearer token (HS256 JWT) valid for 43200 s, holding the credential's scopes.
     *
     *     Needs no token.
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who the token acts for
     * @description Needs a valid token, of any scope.
     */
    get: operations['getMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List clients
     * @description Needs the scope `clients:read`.
     */
    get: operations['listClients'];
    put?: never;
    /**
     * Create a client, or find it
     * @description Returns the existing client with the same (documentType, taxId, branchExternalCode) unchanged (200) instead of creating another.
     *
     *     Needs the scope `clients:write`.
     */
    post: operations['createClient'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/clients/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a client
     * @description Needs the scope `clients:read`.
     */
    get: operations['getClient'];
    /**
     * Replace a client
     * @description A full body; taxId, documentType and branchExternalCode cannot change (400 validation).
     *
     *     Needs the scope `clients:write`.
     */
    put: operations['replaceClient'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/associates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List associates
     * @description status defaults to ACTIVE.
     *
     *     Needs the scope `associates:read`.
     */
    get: operations['listAssociates'];
    put?: never;
    /**
     * Create an associate, or find it
     * @description Returns the ACTIVE associate with that taxId (200) instead of creating another; a DISABLED one gives 422 associate-disabled (activate it instead).
     *
     *     Needs the scope `associates:write`.
     */
    post: operations['createAssociate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/associates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get an associate
     * @description Needs the scope `associates:read`.
     */
    get: operations['getAssociate'];
    /**
     * Replace an associate
     * @description A full body; taxId cannot change, and a parentAssociateId that reports to this associate (a supervisor loop) is 400 validation.
     *
     *     Needs the scope `associates:write`.
     */
    put: operations['replaceAssociate'];
    post?: never;
    /**
     * Disable an associate
     * @description A soft delete: status DISABLED.
     *
     *     Needs the scope `associates:write`.
     */
    delete: operations['disableAssociate'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/associates/{id}/activations': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-enable a DISABLED associate
     * @description Needs the scope `associates:write`.
     */
    post: operations['activateAssociate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/clients/{id}/associates': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List a client's associates
     * @description Associates sharing receivable accounts with the client.
     *
     *     Needs the scope `associates:read`.
     */
    get: operations['listClientAssociates'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivable-accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List receivable accounts
     * @description status defaults to ACTIVE. The lookup by clientTaxId that finds nothing answers 204, no body, X-Total-Count 0.
     *
     *     Needs the scope `receivable-accounts:read`.
     */
    get: operations['listReceivableAccounts'];
    put?: never;
    /**
     * Open a receivable account
     * @description Its CVU is requested from the banking provider asynchronously: the account starts PROVISIONING with cvu and alias null, and turns ACTIVE when the CVU is assigned (event receivable-account.activated).
     *
     *     Needs the scope `receivable-accounts:write`.
     */
    post: operations['createReceivableAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivable-accounts/batches': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open many receivable accounts
     * @description Up to 1000; each item stands alone, as if posted by itself (a malformed item is its own 400 validation): its result carries the status it would have had and the account or the Problem.
     *
     *     Needs the scope `receivable-accounts:write`.
     */
    post: operations['createReceivableAccountBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivable-accounts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a receivable account
     * @description Needs the scope `receivable-accounts:read`.
     */
    get: operations['getReceivableAccount'];
    /**
     * Change the alias or bind an associate
     * @description Needs the scope `receivable-accounts:write`.
     */
    put: operations['updateReceivableAccount'];
    post?: never;
    /**
     * Disable a receivable account
     * @description Also stops its provisioning; disabledReason DISABLED_BY_CUSTOMER.
     *
     *     Needs the scope `receivable-accounts:write`.
     */
    delete: operations['disableReceivableAccount'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivable-accounts/{id}/activations': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-enable a DISABLED receivable account
     * @description ACTIVE again, or PROVISIONING again if it never got a CVU.
     *
     *     Needs the scope `receivable-accounts:write`.
     */
    post: operations['activateReceivableAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/clients/{id}/receivable-accounts': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List a client's receivable accounts
     * @description The account list's filters, but the owner the path names (given, 400 validation).
     *
     *     Needs the scope `receivable-accounts:read`.
     */
    get: operations['listClientReceivableAccounts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/associates/{id}/receivable-accounts': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List an associate's receivable accounts
     * @description The account list's filters, but the owner the path names (given, 400 validation).
     *
     *     Needs the scope `receivable-accounts:read`.
     */
    get: operations['listAssociateReceivableAccounts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivables': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List receivables
     * @description Needs the scope `receivables:read`.
     */
    get: operations['listReceivables'];
    put?: never;
    /**
     * Issue a receivable
     * @description Status PENDING, or PAID for a child of a PAID parent. A negative type (CREDIT_NOTE, MISSING_PRODUCT, ADJUSTMENT, RETENTION, RETURN_PRODUCT, BROKEN_PRODUCT) names its parent and lowers what is owed on it.
     *
     *     Needs the scope `receivables:write`.
     */
    post: operations['createReceivable'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivables/batches': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue up to 1000 receivables
     * @description Each item stands alone, as if posted by itself (a malformed item is its own 400 validation): its result carries the status it would have had and the receivable or the Problem.
     *
     *     Needs the scope `receivables:write`.
     */
    post: operations['createReceivableBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivables/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a receivable
     * @description Needs the scope `receivables:read`.
     */
    get: operations['getReceivable'];
    /**
     * Edit a receivable
     * @description description, legalNumber, externalRoutingCode, issueDate, dueDate, attachmentUri, invoiceData, and amount while PENDING.
     *
     *     Needs the scope `receivables:write`.
     */
    put: operations['updateReceivable'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivables/{id}/status': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Mark paid, undo, or cancel a receivable
     * @description PAID, PENDING (undo) or DISABLED (cancel); active children follow their parent to PAID and back. SETTLED and EXPIRED are set only by the service (422 invalid-status-transition).
     *
     *     Needs the scope `receivables:write`.
     */
    patch: operations['changeReceivableStatus'];
    trace?: never;
  };
  '/v1/receivable-accounts/{id}/receivables': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List an account's receivables
     * @description The receivable list's filters, but receivableAccountId (the path names the account; given, 400 validation).
     *
     *     Needs the scope `receivables:read`.
     */
    get: operations['listReceivableAccountReceivables'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/route-settlements': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List route settlements
     * @description Needs the scope `route-settlements:read`.
     */
    get: operations['listRouteSettlements'];
    put?: never;
    /**
     * Create a route settlement, or find it
     * @description 201 new; 200 the same (routeCode, date, associateId) again.
     *
     *     Needs the scope `route-settlements:write`.
     */
    post: operations['createRouteSettlement'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/route-settlements/{routeCode}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The route code */
        routeCode: string;
      };
      cookie?: never;
    };
    /**
     * Get a route settlement
     * @description With its summary: the count and net amount of its receivables, by type.
     *
     *     Needs the scope `route-settlements:read`.
     */
    get: operations['getRouteSettlement'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/route-settlements/{routeCode}/receivables': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The route code */
        routeCode: string;
      };
      cookie?: never;
    };
    /**
     * List a route settlement's receivables
     * @description Needs the scope `receivables:read`.
     */
    get: operations['listRouteSettlementReceivables'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/associates/{id}/route-settlements': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List an associate's route settlements
     * @description The route settlement list's filters, but associateId (the path names the associate; given, 400 validation).
     *
     *     Needs the scope `route-settlements:read`.
     */
    get: operations['listAssociateRouteSettlements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/current-accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List current accounts
     * @description Read-only: the service opens them and settles collected money into them.
     *
     *     Needs the scope `current-accounts:read`.
     */
    get: operations['listCurrentAccounts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/current-accounts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a current account
     * @description Needs the scope `current-accounts:read`.
     */
    get: operations['getCurrentAccount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/current-accounts/{id}/balances': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a current account's balances
     * @description Settled funds are in the CVU wallet.
     *
     *     Needs the scope `current-accounts:read`.
     */
    get: operations['getCurrentAccountBalances'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/current-accounts/{id}/movements': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List a current account's movements
     * @description Needs the scope `current-accounts:read`.
     */
    get: operations['listCurrentAccountMovements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receivable-accounts/{id}/movements': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * List a receivable account's movements
     * @description Money arrived (CREDIT DEPOSIT) and swept to the current account (DEBIT SETTLEMENT).
     *
     *     Needs the scope `receivable-accounts:read`.
     */
    get: operations['listReceivableAccountMovements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List settlements
     * @description Needs the scope `current-accounts:read`.
     */
    get: operations['listSettlements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a settlement
     * @description Needs the scope `current-accounts:read`.
     */
    get: operations['getSettlement'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/transfers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List transfers
     * @description The caller's transfers, newest first. A sourceAccountId of another customer's matches nothing.
     *
     *     Needs the scope `transfers:read`.
     */
    get: operations['listTransfers'];
    put?: never;
    /**
     * Create a transfer
     * @description OUTGOING_TRANSFER pays a third party: destination.cbuCvu (22 digits, both check digits verified) or destination.alias (6 to 20 of letters, digits, '.', '-'), and destination.counterParty {name, taxId}. INTERNAL_TRANSFER moves money to another current account of the caller: destination.accountId only; the answer carries that account’s CVU and alias.
     *
     *     An alias is resolved when the transfer is created, before anything is stored (one of this service’s accounts by the service, any other at the banking provider): the transfer pays the account found, and its answer shows that cbuCvu; one sent with a cbuCvu must name the same account (400 otherwise).
     *
     *     Instead of destination, an OUTGOING_TRANSFER may name one of the caller’s recipients by contactId (never both): its CBU/CVU, alias, name and taxId are copied into the transfer, which answers with that destination and the contactId; editing or deleting the recipient later never changes the transfer.
     *
     *     The first status: PENDING_APPROVAL when the customer has approval control (a second credential approves it); otherwise SCHEDULED when a scheduledDate is given (today in Buenos Aires included: cancellable until the worker takes it that day), else PENDING. A scheduledDate already past is 400.
     *
     *     The balance is not checked here: the transfer worker checks and debits it atomically when it pays, and a transfer the balance cannot cover then ends FAILED with failureReason insufficient-balance.
     *
     *     Send an Idempotency-Key (SPEC: a creation should carry one; the service accepts one without): a creation retried under the same key pays once, one retried without a key is a second transfer.
     *
     *     Needs the scope `transfers:write`.
     */
    post: operations['createTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/transfers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a transfer
     * @description Needs the scope `transfers:read`.
     */
    get: operations['getTransfer'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/transfers/{id}/cancellations': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a transfer
     * @description Only a SCHEDULED or PENDING_APPROVAL transfer: once PENDING the worker may be paying it.
     *
     *     Needs the scope `transfers:write`.
     */
    post: operations['cancelTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/transfers/{id}/approvals': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve a transfer
     * @description Four eyes: a PENDING_APPROVAL transfer is approved by another credential than the one that created it. It becomes SCHEDULED when its scheduledDate is after today in Buenos Aires, else PENDING (CONTRACT): approved on its day or later, it is due at once.
     *
     *     Needs the scope `transfers:approve`.
     */
    post: operations['approveTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/transfers/{id}/rejections': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reject a transfer
     * @description A PENDING_APPROVAL transfer becomes CANCELLED. Its creator may reject it too (it could cancel it as well).
     *
     *     Needs the scope `transfers:approve`.
     */
    post: operations['rejectTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/contacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List recipients
     * @description Needs the scope `contacts:read`.
     */
    get: operations['listContacts'];
    put?: never;
    /**
     * Save a recipient
     * @description Send cbuCvu (22 digits, both check digits verified), alias (6 to 20 letters, digits, ".", "-"), or both. An alias of an account of this service names that account (its CVU); any other is resolved at the banking provider before anything is stored, which fills cbuCvu and entity; with both, the alias must name that cbuCvu (else 400 validation on alias). With cbuCvu alone, entity comes from the table of Argentine banks (first 3 digits) and wallets (CVU: 000 and a 4-digit PSP code), and alias stays null. A recipient no transfer could pay is refused as a transfer to it is: a current account of this service (yours: move money with an INTERNAL_TRANSFER) or another customer's receivable account that is not ACTIVE is 400 validation on cbuCvu (or on alias when one was sent), your own receivable account 422.
     *
     *     Needs the scope `contacts:write`.
     */
    post: operations['createContact'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/contacts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a recipient
     * @description Needs the scope `contacts:read`.
     */
    get: operations['getContact'];
    /**
     * Replace a recipient
     * @description A full body, as for creation; an alias left out is dropped. Send cbuCvu (22 digits, both check digits verified), alias (6 to 20 letters, digits, ".", "-"), or both. An alias of an account of this service names that account (its CVU); any other is resolved at the banking provider before anything is stored, which fills cbuCvu and entity; with both, the alias must name that cbuCvu (else 400 validation on alias). With cbuCvu alone, entity comes from the table of Argentine banks (first 3 digits) and wallets (CVU: 000 and a 4-digit PSP code), and alias stays null. A recipient no transfer could pay is refused as a transfer to it is: a current account of this service (yours: move money with an INTERNAL_TRANSFER) or another customer's receivable account that is not ACTIVE is 400 validation on cbuCvu (or on alias when one was sent), your own receivable account 422.
     *
     *     Needs the scope `contacts:write`.
     */
    put: operations['replaceContact'];
    post?: never;
    /**
     * Delete a recipient
     * @description Deleted for good: its cbuCvu and alias are free for a new recipient; transfers already made keep their destination.
     *
     *     Needs the scope `contacts:write`.
     */
    delete: operations['deleteContact'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events
     * @description The caller's events, newest first (by createdAt, then by the order they were recorded): the envelopes webhook deliveries carry, so an integrator whose endpoint was down can catch up without asking for redeliveries. Events are kept for EVENT_RETENTION_DAYS (30 by default) once delivered. createdAt is when the change began and an event is readable once its transaction commits, so in this list one of a longer transaction (a 1,000-item batch, a settlement) can appear after events stamped later. To follow every event without missing one, use the feed: sort=feed lists them oldest first in an order in which none ever appears before one already given (an event whose transaction is still open comes after, once it commits), and its Link rel="next" is always there, from where the page ended: read it again to get what came since. The feed starts at its cursor, else at the first event created at or after fromDate, or earlier where a transaction still running could yet record one (committed events of transactions that began earlier may sit before it: start a few minutes early and skip by id those you have), else at the oldest held; fromDate only places the start (not with a cursor). It takes count, cursor and fromDate only; X-Total-Count is every event held. An event enters the feed once every transaction older than its own that has written has ended, on the whole database server: a long one (another application's on the same server too) holds the feed back, never out of order.
     *
     *     Needs the scope `webhooks:read`.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The event id (evt_…), the webhook-id of its deliveries */
        id: string;
      };
      cookie?: never;
    };
    /**
     * Get an event
     * @description Needs the scope `webhooks:read`.
     */
    get: operations['getEvent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description Needs the scope `webhooks:read`.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Register a webhook
     * @description ACTIVE at once. The answer is the only one, with the rotation, that carries the signing `secret` (whsec_ and base64 of 32 random bytes): keep it. A replay under the same Idempotency-Key answers the same body, secret included, for 24 hours.
     *
     *     Needs the scope `webhooks:write`.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Get a webhook
     * @description The secret is not returned; secretMaskedTail shows its last 4 characters.
     *
     *     Needs the scope `webhooks:read`.
     */
    get: operations['getWebhook'];
    /**
     * Change the url, the events or both
     * @description A member left out keeps its value; a body with neither is 400 validation. The status and the secret do not change.
     *
     *     Needs the scope `webhooks:write`.
     */
    put: operations['updateWebhook'];
    post?: never;
    /**
     * Delete a webhook
     * @description Nothing more is sent to it, and it and its delivery history are gone from every answer at once (404). The history is deleted from storage by the next event purge (EVENT_PURGE_CRON), in batches, so a deletion costs the same whatever the webhook sent.
     *
     *     Needs the scope `webhooks:write`.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{id}/pauses': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause deliveries
     * @description ACTIVE to PAUSED. Events that happen meanwhile are kept and delivered on activation.
     *
     *     Needs the scope `webhooks:write`.
     */
    post: operations['pauseWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{id}/activations': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume deliveries
     * @description PAUSED or FAILED to ACTIVE: what it holds is delivered.
     *
     *     Needs the scope `webhooks:write`.
     */
    post: operations['activateWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{id}/secret-rotations': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description Answers the webhook with its new `secret`. The secret it replaces keeps signing for 24 hours, as do those replaced before it within their own 24 hours: deliveries carry one signature per secret in webhook-signature, space separated, at most 5 (the current one and the 4 newest replaced ones), so verification with any of them passes while the new one is deployed.
     *
     *     Needs the scope `webhooks:write`.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    /**
     * Delivery history
     * @description One entry per attempt, newest first by creationDate (when it entered the history, which never changes).
     *
     *     Needs the scope `webhooks:read`.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    /**
     * Send a test event, or redeliver an event
     * @description {eventType}: sends an event of type webhook.test ({id, type, createdAt, data: {webhook: {id, url}, eventType}}, eventType being the one asked for). {eventId}: sends a new attempt of that event (one of the customer's, still kept: see GET /v1/events; a test event is not stored and cannot be redelivered: send another test), with its original webhook-id and body, numbered after its earlier attempts at this webhook; no automatic retry follows it. Either is sent now, signed like every delivery, whatever the status and subscriptions of the webhook, and answers how the endpoint took it: SUCCESS for a 2xx within the deadline (15 s), else FAILED with failureReason. The attempt is in the history and counts in the run of consecutive failures. Each call sends one attempt; a repeat under the same Idempotency-Key replays the answer to the first instead (sent while that attempt still waits on the endpoint, it waits too, up to 10 s, then 409 idempotency-request-in-progress).
     *
     *     Needs the scope `webhooks:write`.
     */
    post: operations['sendTestDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/collections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simulate money arriving on a receivable account
     * @description Money arrives on one of the caller's ACTIVE receivable accounts: a CREDIT DEPOSIT movement, event movement.created. Served in sandbox mode only (APP_MODE=sandbox); in production the whole path answers 404 resource-not-found.
     *
     *     Needs the scope `receivable-accounts:write`.
     */
    post: operations['createSandboxCollection'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/settlement-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run the settlement cycle now
     * @description For the caller's customer alone (other customers' accounts wait for the scheduled cycle): PAID receivables whose money arrived are SETTLED into the current account. Served in sandbox mode only (APP_MODE=sandbox); in production the whole path answers 404 resource-not-found.
     *
     *     Needs the scope `receivables:write`.
     */
    post: operations['runSandboxSettlement'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/expiration-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run the daily expiry job now
     * @description For the caller's customer alone, as if on `date`: its PENDING receivables (children too) due before that day become EXPIRED (event receivable.expired each). Served in sandbox mode only (APP_MODE=sandbox); in production the whole path answers 404 resource-not-found.
     *
     *     Needs the scope `receivables:write`.
     */
    post: operations['runSandboxExpiration'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/transfer-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run the transfer worker now
     * @description For the caller's customer alone, as if on `date`: PENDING transfers and SCHEDULED ones dated up to that day are debited and paid (INTERNAL_TRANSFER at once; OUTGOING_TRANSFER through the banking provider), or FAIL (insufficient-balance, destination-rejected, ...); IN_PROGRESS ones whose worker stopped are reconciled with the provider's record of their payout. Events transfer.completed and transfer.failed. Served in sandbox mode only (APP_MODE=sandbox); in production the whole path answers 404 resource-not-found.
     *
     *     Needs the scope `transfers:write`.
     */
    post: operations['runSandboxTransfers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bank/notifications/incoming-transfers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Money arrived on a CVU
     * @description For the banking provider, not for integrators: its signed notification of a transfer to a receivable account's CVU. Served when BANK_NOTIFICATION_SECRET is set, and in sandbox under a random secret of its own, kept in its database, unless it is set. Errors are application/problem+json like the API's.
     *
     *     Needs no token.
     */
    post: operations['receiveIncomingTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness and database readiness
     * @description Needs no token.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The service's metrics for Prometheus
     * @description Requests by method, route template and status (counted and timed), scheduled job runs by outcome and their last success, and the process's own metrics; under HTTP_WORKERS, every worker's summed. No label names a customer or a resource.
     *
     *     Needs no token.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document
     * @description Needs no token.
     */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'receivable-account.activated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable-account.activated delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableAccountActivatedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable-account.disabled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable-account.disabled delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableAccountDisabledEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.created delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableCreatedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.paid': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.paid delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivablePaidEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.reopened': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.reopened delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableReopenedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.expired': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.expired delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableExpiredEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.disabled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.disabled delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableDisabledEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'receivable.settled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * receivable.settled delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['receivableSettledEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'movement.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * movement.created delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['movementCreatedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'settlement.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * settlement.completed delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['settlementCompletedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'transfer.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * transfer.completed delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['transferCompletedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'transfer.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * transfer.failed delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['transferFailedEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * webhook.test delivered to a subscribed endpoint
     * @description Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure. Delivery is at least once: deduplicate by webhook-id.
     */
    post: operations['webhookTestEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    Problem: {
      type: string;
      title: string;
      status: number;
      detail: string;
      /** @description Stable error code (SPEC "Errors") */
      code: string;
      invalidParams?: {
        name: string;
        reason: string;
      }[];
      requestId?: string;
      /** Format: int64 */
      existingResourceId?: number;
      missingFields?: string[];
      requiredScope?: string;
      /** @description What the banking provider did (external-provider-unavailable, external-provider-timeout) */
      providerError?: {
        /** @description TIMEOUT, HTTP_503, ECONNREFUSED, BAD_RESPONSE, ... */
        code: string;
        detail: string;
      };
    };
    LoginRequest: {
      clientId: string;
      clientSecret: string;
    };
    LoginResponse: {
      accessToken: string;
      /** @constant */
      tokenType: 'Bearer';
      /** @description Seconds (43200) */
      expiresIn: number;
      /** @description Space-separated scopes */
      scope: string;
    };
    Me: {
      /** Format: int64 */
      customerId: number;
      customerName: string;
      clientId: string;
      scopes: string[];
    };
    ClientInput: {
      businessName: string;
      /** @description CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field. */
      taxId: string;
      /** @enum {unknown} */
      documentType: 'CUIT' | 'CUIL';
      /** Format: email */
      email?: string | null;
      /** @description Set only for a branch; then branchDescription and branchReferenceAddress are required, not blank; no white space at either end, no control or invisible characters, no white space but the plain space, in composed form (NFC) (it is matched character for character) */
      branchExternalCode?: string | null;
      branchDescription?: string | null;
      branchReferenceAddress?: string | null;
      /** @description Your own reference; a list filter: no white space at either end, no control or invisible characters, no white space but the plain space, in composed form (NFC) (it is matched character for character) */
      externalId?: string | null;
    };
    Client: {
      /** Format: int64 */
      id: number;
      businessName: string;
      /** @description 11 digits; input may carry dashes and spaces */
      taxId: string;
      /** @enum {unknown} */
      documentType: 'CUIT' | 'CUIL';
      email: string | null;
      branchExternalCode: string | null;
      branchDescription: string | null;
      branchReferenceAddress: string | null;
      externalId: string | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    AssociateInput: {
      /** @description Free-form; conventional: DRIVER, DISTRIBUTOR, STUDENT, GUARDIAN, MEMBER, OTHER */
      type: string;
      name: string;
      lastName: string;
      /** @description CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field. */
      taxId: string;
      /** @description The national identity number (DNI) as digits only, 6 to 9, without dots */
      documentNumber: string;
      /** Format: email */
      email: string;
      /** @description With its country code, in E.164: + and 8 to 15 digits, no spaces or dashes (+5491155550123); stored and answered as given */
      phone: string;
      address?: string | null;
      parentAssociateId?: number | null;
    };
    Associate: {
      /** Format: int64 */
      id: number;
      type: string;
      name: string;
      lastName: string;
      /** @description 11 digits; input may carry dashes and spaces */
      taxId: string;
      documentNumber: string;
      email: string;
      phone: string;
      address: string | null;
      parentAssociateId: number | null;
      /** @enum {unknown} */
      status: 'ACTIVE' | 'DISABLED';
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    /** @description clientId and/or associateId (at least one: else 422 receivable-account-requires-owner) */
    ReceivableAccountInput: {
      clientId?: number | null;
      associateId?: number | null;
      /** @constant */
      currencyCode?: 'ARS';
    };
    ReceivableAccountUpdate: {
      /** @description Only once the account has one (ACTIVE); unique across the service in any letter case. Aliases of the form the service generates (cta.0000042, cta.0000042-2, ra.0000042, main.cta.5, sub.cta.6, in any case) are reserved for the accounts they are generated for. Either is 409 alias-already-in-use */
      alias?: string;
      /** @description Binds an associate to an account that has none (or replaces it before the CVU is active); not null, an associate is never unbound */
      associateId?: number;
      /** @description What the account was opened for: may be sent again, another of the customer's clients is 400 validation (another customer's, 403) */
      clientId?: number | null;
      /** @description May be sent again, another value is 400 validation */
      currencyCode?: string;
      /** @description The banking provider's: derived, ignored if sent (SPEC), whatever its value */
      cvu?: unknown;
      /** @description As the account shows it: may be sent again, another owner is 400 validation (an associate is bound with associateId) */
      owner?: Record<string, never>;
    };
    ReceivableAccount: {
      /** Format: int64 */
      id: number;
      /** @description null while PROVISIONING */
      cvu: string | null;
      /** @description Generated from the customer template when the CVU is assigned (with a suffix -2 to -9 if another account holds that alias) */
      alias: string | null;
      /** @constant */
      currencyCode: 'ARS';
      /** @enum {unknown} */
      status: 'PROVISIONING' | 'ACTIVE' | 'DISABLED';
      /**
       * @description Why a DISABLED account is disabled; null otherwise. PROVIDER_REJECTED: the banking provider refused to issue the CVU (for good; see disabledMessage). PROVISIONING_RETRIES_EXHAUSTED: the provider could not be reached or answered unusably PROVISIONING_MAX_ATTEMPTS times in a row. DISABLED_BY_CUSTOMER: DELETE. Activating the account clears it. Also in receivable-account.disabled events.
       * @enum {unknown}
       */
      disabledReason: 'PROVIDER_REJECTED' | 'PROVISIONING_RETRIES_EXHAUSTED' | 'DISABLED_BY_CUSTOMER' | null;
      /** @description The provider's own words when disabledReason is PROVIDER_REJECTED; null otherwise */
      disabledMessage: string | null;
      /** @description displayName/taxId (or client/associate) only with expand=owner */
      owner:
        | {
            /** @enum {unknown} */
            type: 'CLIENT' | 'ASSOCIATE';
            /** Format: int64 */
            id: number;
            displayName?: string;
            /** @description 11 digits; input may carry dashes and spaces */
            taxId?: string;
          }
        | {
            /** @constant */
            type: 'CLIENT_AND_ASSOCIATE';
            /** Format: int64 */
            clientId: number;
            /** Format: int64 */
            associateId: number;
            client?: {
              displayName: string;
              /** @description 11 digits; input may carry dashes and spaces */
              taxId: string;
              branchExternalCode: string | null;
            };
            associate?: {
              displayName: string;
              /** @description 11 digits; input may carry dashes and spaces */
              taxId: string;
            };
          };
      stats: {
        /** @description Sum of the amounts of the account's PENDING receivables, each amount positive whatever its type (SPEC: the sign comes from receivableType; a net figure is what a route settlement summary gives) */
        pendingAmount: number;
      };
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    ReceivableAccountBatchRequest: {
      items: components['schemas']['ReceivableAccountInput'][];
    };
    ReceivableAccountBatchResponse: {
      results: {
        index: number;
        /** @description The HTTP status the item would have had alone */
        status: number;
        receivableAccount?: components['schemas']['ReceivableAccount'];
        error?: components['schemas']['Problem'];
      }[];
    };
    ReceivableInput: {
      /** Format: int64 */
      receivableAccountId: number;
      /** @description Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted) */
      amount: number | string;
      /** @constant */
      currencyCode: 'ARS';
      /** @enum {unknown} */
      receivableType: 'INVOICE' | 'DEBT' | 'CREDIT_NOTE' | 'MISSING_PRODUCT' | 'RETURN_PRODUCT' | 'BROKEN_PRODUCT' | 'ADJUSTMENT' | 'RETENTION';
      /** @description Inherited from the account; if sent, must be the account's client */
      clientId?: number | null;
      /** @description Bound to the account if it has none; another one than the account's is 422 */
      associateId?: number | null;
      /** @description Unique per customer; no white space at either end, no control or invisible characters, no white space but the plain space, in composed form (NFC) (it is matched character for character) */
      legalNumber?: string | null;
      description?: string | null;
      /** @description Groups the receivable under the route settlement of that code when the associate matches; the rules of a routeCode apply (no white space at either end, no control or invisible characters, no white space but the plain space, no /, ? or #, not . or ..); editing it regroups the receivable */
      externalRoutingCode?: string | null;
      /** Format: date */
      issueDate?: string | null;
      /**
       * Format: date
       * @description Not before issueDate (400 validation); the same day is allowed
       */
      dueDate?: string | null;
      /**
       * Format: date
       * @description Defaults to today in Buenos Aires
       */
      receivableDate?: string | null;
      /** @description Required for negative types, refused for positive ones */
      parentReceivableId?: number | null;
      /**
       * Format: uri
       * @description An absolute http:// or https:// URL, of any host (400 validation otherwise)
       */
      attachmentUri?: string | null;
      /** @description Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields) */
      invoiceData?: {
        version?: string;
        pointOfSale?: string;
        quote?: string;
        rawDocumentType?: string;
        recipientDocumentType?: string;
        authCodeType?: string;
        authCode?: string;
      } | null;
    };
    /** @description Editable fields; amount only while PENDING. Identity fields may be sent unchanged (a change is 400 validation). */
    ReceivableEdit: {
      amount?: number | string;
      legalNumber?: string | null;
      description?: string | null;
      externalRoutingCode?: string | null;
      /** Format: date */
      issueDate?: string | null;
      /**
       * Format: date
       * @description Not before issueDate (400 validation); the same day is allowed
       */
      dueDate?: string | null;
      /**
       * Format: uri
       * @description An absolute http:// or https:// URL, of any host (400 validation otherwise)
       */
      attachmentUri?: string | null;
      /** @description Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields) */
      invoiceData?: {
        version?: string;
        pointOfSale?: string;
        quote?: string;
        rawDocumentType?: string;
        recipientDocumentType?: string;
        authCodeType?: string;
        authCode?: string;
      } | null;
    };
    ReceivableStatusInput: {
      /**
       * @description PAID from PENDING/EXPIRED; PENDING undoes PAID; DISABLED cancels
       * @enum {unknown}
       */
      status: 'PAID' | 'PENDING' | 'DISABLED';
    };
    Receivable: {
      /** Format: int64 */
      id: number;
      /** Format: int64 */
      receivableAccountId: number;
      clientId: number | null;
      associateId: number | null;
      amount: number;
      /** @constant */
      currencyCode: 'ARS';
      /** @enum {unknown} */
      receivableType: 'INVOICE' | 'DEBT' | 'CREDIT_NOTE' | 'MISSING_PRODUCT' | 'RETURN_PRODUCT' | 'BROKEN_PRODUCT' | 'ADJUSTMENT' | 'RETENTION';
      /** @enum {unknown} */
      status: 'PENDING' | 'PAID' | 'EXPIRED' | 'SETTLED' | 'DISABLED';
      legalNumber: string | null;
      description: string | null;
      externalRoutingCode: string | null;
      /** Format: date */
      issueDate: string | null;
      /** Format: date */
      dueDate: string | null;
      /** Format: date */
      receivableDate: string;
      parentReceivableId: number | null;
      attachmentUri: string | null;
      /** @description Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields) */
      invoiceData: {
        version?: string;
        pointOfSale?: string;
        quote?: string;
        rawDocumentType?: string;
        recipientDocumentType?: string;
        authCodeType?: string;
        authCode?: string;
      } | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    ReceivableBatchRequest: {
      items: components['schemas']['ReceivableInput'][];
    };
    ReceivableBatchResponse: {
      results: {
        index: number;
        /** @description The HTTP status the item would have had alone */
        status: number;
        receivable?: components['schemas']['Receivable'];
        error?: components['schemas']['Problem'];
      }[];
    };
    RouteSettlementInput: {
      /** @description No white space at either end, no control or invisible characters, no white space but the plain space, no /, ? or #, not . or .., in composed form (NFC) (400 validation) */
      routeCode: string;
      /** Format: date */
      date: string;
      /** Format: int64 */
      associateId: number;
    };
    RouteSettlement: {
      /** Format: int64 */
      id: number;
      routeCode: string;
      /** Format: date */
      date: string;
      /** Format: int64 */
      associateId: number;
      receivableAccountIds: number[];
      summary: {
        receivablesCount: number;
        /** @description Net: positive types add, negative subtract (cancelled receivables left out) */
        totalAmount: number;
        byReceivableType: {
          /** @enum {unknown} */
          type: 'INVOICE' | 'DEBT' | 'CREDIT_NOTE' | 'MISSING_PRODUCT' | 'RETURN_PRODUCT' | 'BROKEN_PRODUCT' | 'ADJUSTMENT' | 'RETENTION';
          count: number;
          /** @description Negative for negative types */
          amount: number;
        }[];
      };
      /** Format: date-time */
      creationDate: string;
    };
    Movement: {
      /** Format: int64 */
      id: number;
      /**
       * Format: int64
       * @description On receivable account movements
       */
      receivableAccountId?: number;
      /**
       * Format: int64
       * @description On current account movements
       */
      currentAccountId?: number;
      /** @enum {unknown} */
      movementType: 'CREDIT' | 'DEBIT';
      /** @enum {unknown} */
      operationType: 'DEPOSIT' | 'SETTLEMENT' | 'TRANSFER';
      /** @enum {unknown} */
      subtype: 'SETTLEMENT_OUT' | 'SETTLEMENT_IN' | 'TRANSFER_OUT' | 'TRANSFER_IN' | 'TRANSFER_REVERSAL' | null;
      amount: number;
      /** @constant */
      currencyCode: 'ARS';
      counterParty: {
        name: string;
        /** @description 11 digits; input may carry dashes and spaces */
        taxId: string;
      } | null;
      settlementId: number | null;
      /** @description The transfer that moved the money (TRANSFER_OUT, TRANSFER_IN, TRANSFER_REVERSAL); null otherwise */
      transferId: number | null;
      /** Format: date-time */
      movementDate: string;
    };
    CurrentAccount: {
      /** Format: int64 */
      id: number;
      /** @enum {unknown} */
      accountType: 'MAIN' | 'SUB';
      cvu: string;
      alias: string;
      /** @constant */
      currencyCode: 'ARS';
      /** @enum {unknown} */
      status: 'ACTIVE' | 'DISABLED';
      /** Format: date-time */
      lastSettlementDate: string | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    Balances: {
      /** Format: int64 */
      currentAccountId: number;
      /** @constant */
      currencyCode: 'ARS';
      /** @description CVU + CASH + CVU_TAX */
      totalBalance: number;
      balanceByWallet: {
        /** @description Settled funds */
        CVU: number;
        CASH: number;
        CVU_TAX: number;
      };
      /** Format: date-time */
      asOf: string;
    };
    Settlement: {
      /** Format: int64 */
      id: number;
      /** Format: int64 */
      receivableAccountId: number;
      /** Format: int64 */
      currentAccountId: number;
      amount: number;
      /** @constant */
      currencyCode: 'ARS';
      receivablesCount: number;
      receivableIds: number[];
      /** Format: date-time */
      settlementDate: string;
      /** Format: date-time */
      creationDate: string;
    };
    TransferInput: {
      /** @enum {unknown} */
      type: 'OUTGOING_TRANSFER' | 'INTERNAL_TRANSFER';
      /**
       * Format: int64
       * @description A current account of the caller (MAIN or SUB)
       */
      sourceAccountId: number;
      /** @description Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted) */
      amount: number | string;
      /** @constant */
      currencyCode: 'ARS';
      /** @description Required unless contactId is given. OUTGOING_TRANSFER: cbuCvu and/or alias, and counterParty. INTERNAL_TRANSFER: accountId only. */
      destination?: {
        cbuCvu?: string | null;
        alias?: string | null;
        accountId?: number | null;
        counterParty?: {
          name: string;
          /** @description CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field. */
          taxId: string;
        } | null;
      } | null;
      /** @description OUTGOING_TRANSFER only: pay this recipient of yours (instead of destination) */
      contactId?: number | null;
      description?: string | null;
      /** @description Your own reference; a list filter: no white space at either end, no control or invisible characters, no white space but the plain space, in composed form (NFC) (it is matched character for character) */
      externalId?: string | null;
      /**
       * Format: date
       * @description The day (Buenos Aires) to pay it on; null or absent: as soon as possible
       */
      scheduledDate?: string | null;
    };
    Transfer: {
      /** Format: int64 */
      id: number;
      /** @enum {unknown} */
      type: 'OUTGOING_TRANSFER' | 'INTERNAL_TRANSFER';
      /** @enum {unknown} */
      status: 'PENDING_APPROVAL' | 'SCHEDULED' | 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
      /** Format: int64 */
      sourceAccountId: number;
      amount: number;
      currencyCode: string;
      /** @description Copied into the transfer when it was created: later changes to a recipient never change it */
      destination: {
        cbuCvu: string | null;
        alias: string | null;
        accountId: number | null;
        counterParty: {
          name: string;
          /** @description 11 digits; input may carry dashes and spaces */
          taxId: string;
        } | null;
      };
      /** @description The recipient the destination came from, if any */
      contactId: number | null;
      description: string | null;
      externalId: string | null;
      /** Format: date */
      scheduledDate: string | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
      /**
       * Format: date-time
       * @description When the money left; null until COMPLETED
       */
      executionDate: string | null;
      /** @description Set only when FAILED: insufficient-balance, source-account-not-active, destination-account-not-active, destination-not-found (an alias no account has), destination-not-payable: <why> (the CBU/CVU now names an account of this service that takes no payment from it), destination-rejected (by the provider, debit returned) or provider-unavailable (never taken by the provider after every attempt, debit returned) */
      failureReason: string | null;
    };
    /** @description cbuCvu, alias or both */
    ContactInput: {
      /** @description Name or legal name */
      name: string;
      /** @description CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field. */
      taxId: string;
      /** @description null is the same as leaving it out */
      cbuCvu?: string | null;
      /** @description null is the same as leaving it out */
      alias?: string | null;
    };
    Contact: {
      /** Format: int64 */
      id: number;
      name: string;
      /** @description 11 digits; input may carry dashes and spaces */
      taxId: string;
      cbuCvu: string;
      /** @description As given; null when the recipient was saved by cbuCvu alone */
      alias: string | null;
      /** @description The bank or wallet that keeps the account (read-only) */
      entity: string;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    Event: {
      /** @description Unique; the webhook-id header of its deliveries, to deduplicate by */
      id: string;
      /** @enum {unknown} */
      type:
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test';
      /**
       * Format: date-time
       * @description When the change happened
       */
      createdAt: string;
      /** @description The resource the event is about, as its GET answers it then: data.receivable (receivable.*), data.receivableAccount (receivable-account.*), data.movement (movement.created), data.settlement (settlement.completed), data.transfer (transfer.*) */
      data: Record<string, never>;
    };
    WebhookInput: {
      /**
       * Format: uri
       * @description https:// only
       */
      url: string;
      events: (
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test'
      )[];
    };
    WebhookUpdate: {
      /**
       * Format: uri
       * @description https:// only
       */
      url?: string;
      events?: (
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test'
      )[];
    };
    Webhook: {
      /** Format: int64 */
      id: number;
      /**
       * Format: uri
       * @description https:// only
       */
      url: string;
      events: (
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test'
      )[];
      /** @enum {unknown} */
      status: 'ACTIVE' | 'PAUSED' | 'FAILED';
      /** @description The last 4 characters of the secret after three dots */
      secretMaskedTail: string;
      /** Format: date-time */
      lastDeliveryAt: string | null;
      /** @enum {unknown} */
      lastDeliveryStatus: 'SUCCESS' | 'FAILED' | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
    };
    WebhookWithSecret: {
      /** Format: int64 */
      id: number;
      /**
       * Format: uri
       * @description https:// only
       */
      url: string;
      events: (
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test'
      )[];
      /** @enum {unknown} */
      status: 'ACTIVE' | 'PAUSED' | 'FAILED';
      /** @description The last 4 characters of the secret after three dots */
      secretMaskedTail: string;
      /** Format: date-time */
      lastDeliveryAt: string | null;
      /** @enum {unknown} */
      lastDeliveryStatus: 'SUCCESS' | 'FAILED' | null;
      /** Format: date-time */
      creationDate: string;
      /** Format: date-time */
      modificationDate: string;
      /** @description Shown only here: keep it to verify signatures */
      secret: string;
    };
    /** @description eventType (a test event) or eventId (a redelivery), one of them */
    DeliveryRequestInput:
      | {
          /** @enum {unknown} */
          eventType:
            | 'receivable-account.activated'
            | 'receivable-account.disabled'
            | 'receivable.created'
            | 'receivable.paid'
            | 'receivable.reopened'
            | 'receivable.expired'
            | 'receivable.disabled'
            | 'receivable.settled'
            | 'movement.created'
            | 'settlement.completed'
            | 'transfer.completed'
            | 'transfer.failed'
            | 'webhook.test';
        }
      | {
          /** @example evt_2xK9vQ7bLm3nP4rT6wY8zA */
          eventId: string;
        };
    WebhookDelivery: {
      /** Format: int64 */
      id: number;
      /** Format: int64 */
      webhookId: number;
      eventId: string;
      /**
       * @description webhook.test marks a test delivery: its event is not stored, so GET /v1/events/{id} and a redelivery of it are 404
       * @enum {unknown}
       */
      eventType:
        | 'receivable-account.activated'
        | 'receivable-account.disabled'
        | 'receivable.created'
        | 'receivable.paid'
        | 'receivable.reopened'
        | 'receivable.expired'
        | 'receivable.disabled'
        | 'receivable.settled'
        | 'movement.created'
        | 'settlement.completed'
        | 'transfer.completed'
        | 'transfer.failed'
        | 'webhook.test';
      attempt: number;
      /** @enum {unknown} */
      status: 'PENDING' | 'SUCCESS' | 'FAILED';
      /** @description The endpoint's HTTP status; null when none came */
      responseCode: number | null;
      /** @description Null when no answer was recorded */
      durationMs: number | null;
      /** @description Why a FAILED attempt failed. "no answer recorded: ..." marks an attempt whose sender stopped mid-call: the endpoint may have had it, and it was sent again as the next attempt (same webhook-id); it does not count in the run of failures */
      failureReason: string | null;
      /**
       * Format: date-time
       * @description When the attempt entered the history: queued, or for a retry when it is due as scheduled (ahead of now until then, as nextAttemptAt; an activation may send it earlier). It never changes, so the history keeps its order while attempts are made (an attempt made before this field existed shows when it was sent, and attemptedAt null)
       */
      creationDate: string;
      /**
       * Format: date-time
       * @description When its send began (later than creationDate for one held while its webhook was paused, or sent late); null while PENDING, for one that expired unsent or whose sender stopped mid-call, and for one made before this field existed
       */
      attemptedAt: string | null;
      /**
       * Format: date-time
       * @description When a PENDING attempt is due: a retry's time on the schedule, or earlier once an activation sends what its webhook holds; null once made, and once held (due while its webhook is PAUSED or FAILED, it waits for an activation)
       */
      nextAttemptAt: string | null;
    };
    CollectionInput: {
      /** Format: int64 */
      receivableAccountId: number;
      amount: number | string;
      /** @constant */
      currencyCode?: 'ARS';
      counterParty: {
        name: string;
        /** @description CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field. */
        taxId: string;
      };
    };
    SettlementRun: {
      settlements: number;
      settledReceivables: number;
      settledAmount: number;
    };
    ExpirationRunInput: {
      /**
       * Format: date
       * @description The Buenos Aires calendar day to run as of (YYYY-MM-DD); absent or null: today there
       */
      date?: string | null;
    };
    TransferRun: {
      /** @description Transfers the run turned COMPLETED */
      completed: number;
      /** @description Transfers the run turned FAILED */
      failed: number;
      /** @description Transfers paid out whose outcome the provider has not given yet (a later run records it) */
      inProgress: number;
    };
    ExpirationRun: {
      /** @description Receivables the run turned EXPIRED */
      expiredReceivables: number;
    };
    Health: {
      /** @enum {unknown} */
      status: 'ok' | 'degraded' | 'draining';
      /** @enum {unknown} */
      database: 'up' | 'down';
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description Requests per minute of the limit closest to running out */
    'RateLimit-Limit': number;
    /** @description Requests that limit still allows now */
    'RateLimit-Remaining': number;
    /** @description Seconds until its current minute ends */
    'RateLimit-Reset': number;
    /** @description Seconds to wait before retrying */
    'Retry-After': number;
    /** @description The request's id: the caller's X-Request-Id when it was well formed, else one the service made. Problem bodies of 500 carry it as requestId */
    'X-Request-Id': string;
    /** @description true when this is the stored answer to an earlier request with the same Idempotency-Key and body; absent on a first answer */
    'Idempotent-Replayed': 'true';
    /** @description How many items match the filters across all pages */
    'X-Total-Count': number;
    /**
     * @description RFC 8288 link to the next page, absent on the last: `</v1/...?...&cursor=...>; rel="next"`. Each page reached through it costs the same however deep, and it does not shift when items are created meanwhile
     * @example </v1/receivables?status=PENDING&count=20&cursor=WyIyMDI2LTAzLTAxVDEyOjAwOjAwLjAwMDAwMFoiLDQyXQ>; rel="next"
     */
    Link: string;
    /** @description The path of the created resource */
    Location: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  login: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "clientId": "sandbox-client",
         *       "clientSecret": "sandbox-secret"
         *     }
         */
        'application/json': components['schemas']['LoginRequest'];
      };
    };
    responses: {
      /** @description Token */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accessToken": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzYW5kYm94LWNsaWVudCJ9.c2lnbmF0dXJl",
           *       "tokenType": "Bearer",
           *       "expiresIn": 43200,
           *       "scope": "clients:read clients:write receivables:read receivables:write"
           *     }
           */
          'application/json': components['schemas']['LoginResponse'];
        };
      };
      /** @description validation: the body is not an object, or clientId and clientSecret are both there but one is not a string (or is too long) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: clientId or clientSecret is missing (absent, null or empty): credentials missing, as SPEC says; checked before their types; invalid-credentials: no active credential has this clientId and clientSecret */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-credentials';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: too many logins from this source address, or to this clientId from it; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Identity */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "customerId": 1,
           *       "customerName": "Sandbox customer",
           *       "clientId": "sandbox-client",
           *       "scopes": [
           *         "clients:read",
           *         "clients:write",
           *         "receivables:read",
           *         "receivables:write"
           *       ]
           *     }
           */
          'application/json': components['schemas']['Me'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listClients: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description 11 digits (dashes allowed) */
        taxId?: string;
        /** @description CUIT or CUIL */
        documentType?: string;
        /** @description Exact */
        branchExternalCode?: string;
        /** @description Exact */
        externalId?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 12,
           *         "businessName": "Distribuidora Norte SA",
           *         "taxId": "30712345671",
           *         "documentType": "CUIT",
           *         "email": "cobranzas@norte.example",
           *         "branchExternalCode": null,
           *         "branchDescription": null,
           *         "branchReferenceAddress": null,
           *         "externalId": "ERP-1001",
           *         "creationDate": "2026-03-02T13:45:00.000Z",
           *         "modificationDate": "2026-03-02T13:45:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Client'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks clients:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createClient: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "businessName": "Distribuidora Norte SA",
         *       "taxId": "30-71234567-1",
         *       "documentType": "CUIT",
         *       "email": "cobranzas@norte.example",
         *       "branchExternalCode": null,
         *       "branchDescription": null,
         *       "branchReferenceAddress": null,
         *       "externalId": "ERP-1001"
         *     }
         */
        'application/json': components['schemas']['ClientInput'];
      };
    };
    responses: {
      /** @description Existing client, unchanged */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "businessName": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "documentType": "CUIT",
           *       "email": "cobranzas@norte.example",
           *       "branchExternalCode": null,
           *       "branchDescription": null,
           *       "branchReferenceAddress": null,
           *       "externalId": "ERP-1001",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Client'];
        };
      };
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "businessName": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "documentType": "CUIT",
           *       "email": "cobranzas@norte.example",
           *       "branchExternalCode": null,
           *       "branchDescription": null,
           *       "branchReferenceAddress": null,
           *       "externalId": "ERP-1001",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Client'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks clients:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description incomplete-branch: branchExternalCode is set without branchDescription and branchReferenceAddress (or with one blank) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'incomplete-branch';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getClient: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Client */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "businessName": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "documentType": "CUIT",
           *       "email": "cobranzas@norte.example",
           *       "branchExternalCode": null,
           *       "branchDescription": null,
           *       "branchReferenceAddress": null,
           *       "externalId": "ERP-1001",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Client'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks clients:read (requiredScope names it); resource-not-accessible: the client is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no client has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  replaceClient: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "businessName": "Distribuidora Norte SA",
         *       "taxId": "30-71234567-1",
         *       "documentType": "CUIT",
         *       "email": "cobranzas@norte.example",
         *       "branchExternalCode": null,
         *       "branchDescription": null,
         *       "branchReferenceAddress": null,
         *       "externalId": "ERP-1001"
         *     }
         */
        'application/json': components['schemas']['ClientInput'];
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "businessName": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "documentType": "CUIT",
           *       "email": "cobranzas@norte.example",
           *       "branchExternalCode": null,
           *       "branchDescription": null,
           *       "branchReferenceAddress": null,
           *       "externalId": "ERP-1001",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Client'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks clients:write (requiredScope names it); resource-not-accessible: the client is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no client has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description incomplete-branch: branchExternalCode is set without branchDescription and branchReferenceAddress (or with one blank) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'incomplete-branch';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listAssociates: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description 11 digits */
        taxId?: string;
        /** @description Exact */
        documentNumber?: string;
        /** @description Exact */
        type?: string;
        /** @description Supervisor id */
        parentAssociateId?: number;
        /** @description ACTIVE (default) or DISABLED */
        status?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 7,
           *         "type": "DRIVER",
           *         "name": "Lucía",
           *         "lastName": "Pereyra",
           *         "taxId": "27283456784",
           *         "documentNumber": "28345678",
           *         "email": "lucia.pereyra@norte.example",
           *         "phone": "+5491155550123",
           *         "address": "Av. Corrientes 1234, CABA",
           *         "parentAssociateId": null,
           *         "status": "ACTIVE",
           *         "creationDate": "2026-03-02T14:00:00.000Z",
           *         "modificationDate": "2026-03-02T14:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Associate'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createAssociate: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "DRIVER",
         *       "name": "Lucía",
         *       "lastName": "Pereyra",
         *       "taxId": "27-28345678-4",
         *       "documentNumber": "28345678",
         *       "email": "lucia.pereyra@norte.example",
         *       "phone": "+5491155550123",
         *       "address": "Av. Corrientes 1234, CABA",
         *       "parentAssociateId": null
         *     }
         */
        'application/json': components['schemas']['AssociateInput'];
      };
    };
    responses: {
      /** @description Existing associate */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "type": "DRIVER",
           *       "name": "Lucía",
           *       "lastName": "Pereyra",
           *       "taxId": "27283456784",
           *       "documentNumber": "28345678",
           *       "email": "lucia.pereyra@norte.example",
           *       "phone": "+5491155550123",
           *       "address": "Av. Corrientes 1234, CABA",
           *       "parentAssociateId": null,
           *       "status": "ACTIVE",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Associate'];
        };
      };
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "type": "DRIVER",
           *       "name": "Lucía",
           *       "lastName": "Pereyra",
           *       "taxId": "27283456784",
           *       "documentNumber": "28345678",
           *       "email": "lucia.pereyra@norte.example",
           *       "phone": "+5491155550123",
           *       "address": "Av. Corrientes 1234, CABA",
           *       "parentAssociateId": null,
           *       "status": "ACTIVE",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Associate'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:write (requiredScope names it); resource-not-accessible: the parentAssociateId is another customer's associate */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has the parentAssociateId */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description associate-disabled: the associate with this taxId, or the parent, is DISABLED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'associate-disabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getAssociate: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Associate */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "type": "DRIVER",
           *       "name": "Lucía",
           *       "lastName": "Pereyra",
           *       "taxId": "27283456784",
           *       "documentNumber": "28345678",
           *       "email": "lucia.pereyra@norte.example",
           *       "phone": "+5491155550123",
           *       "address": "Av. Corrientes 1234, CABA",
           *       "parentAssociateId": null,
           *       "status": "ACTIVE",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Associate'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:read (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  replaceAssociate: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "DRIVER",
         *       "name": "Lucía",
         *       "lastName": "Pereyra",
         *       "taxId": "27-28345678-4",
         *       "documentNumber": "28345678",
         *       "email": "lucia.pereyra@norte.example",
         *       "phone": "+5491155550123",
         *       "address": "Av. Corrientes 1234, CABA",
         *       "parentAssociateId": null
         *     }
         */
        'application/json': components['schemas']['AssociateInput'];
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "type": "DRIVER",
           *       "name": "Lucía",
           *       "lastName": "Pereyra",
           *       "taxId": "27283456784",
           *       "documentNumber": "28345678",
           *       "email": "lucia.pereyra@norte.example",
           *       "phone": "+5491155550123",
           *       "address": "Av. Corrientes 1234, CABA",
           *       "parentAssociateId": null,
           *       "status": "ACTIVE",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Associate'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:write (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description associate-disabled: the associate, or the parent, is DISABLED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'associate-disabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  disableAssociate: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Disabled */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:write (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description associate-disabled: the associate is DISABLED already */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'associate-disabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  activateAssociate: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Active again */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "type": "DRIVER",
           *       "name": "Lucía",
           *       "lastName": "Pereyra",
           *       "taxId": "27283456784",
           *       "documentNumber": "28345678",
           *       "email": "lucia.pereyra@norte.example",
           *       "phone": "+5491155550123",
           *       "address": "Av. Corrientes 1234, CABA",
           *       "parentAssociateId": null,
           *       "status": "ACTIVE",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Associate'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:write (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description invalid-status-transition: the associate is ACTIVE already */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listClientAssociates: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 7,
           *         "type": "DRIVER",
           *         "name": "Lucía",
           *         "lastName": "Pereyra",
           *         "taxId": "27283456784",
           *         "documentNumber": "28345678",
           *         "email": "lucia.pereyra@norte.example",
           *         "phone": "+5491155550123",
           *         "address": "Av. Corrientes 1234, CABA",
           *         "parentAssociateId": null,
           *         "status": "ACTIVE",
           *         "creationDate": "2026-03-02T14:00:00.000Z",
           *         "modificationDate": "2026-03-02T14:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Associate'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks associates:read (requiredScope names it); resource-not-accessible: the client is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no client has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listReceivableAccounts: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Owner client */
        clientId?: number;
        /** @description Owner associate */
        associateId?: number;
        /** @description CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE */
        ownerType?: string;
        /** @description The client's taxId (11 digits): the lookup of candidate accounts */
        clientTaxId?: string;
        /** @description The client's branch */
        branchExternalCode?: string;
        /** @description Exact, 22 digits */
        cvu?: string;
        /** @description Exact */
        alias?: string;
        /** @description PROVISIONING, ACTIVE (default) or DISABLED */
        status?: string;
        /** @description owner: add names and tax ids of the owners */
        expand?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 31,
           *         "cvu": "0000003100098765432109",
           *         "alias": "norte.pereyra.31",
           *         "currencyCode": "ARS",
           *         "status": "ACTIVE",
           *         "disabledReason": null,
           *         "disabledMessage": null,
           *         "owner": {
           *           "type": "CLIENT_AND_ASSOCIATE",
           *           "clientId": 12,
           *           "associateId": 7
           *         },
           *         "stats": {
           *           "pendingAmount": 15000.5
           *         },
           *         "creationDate": "2026-03-02T14:30:00.000Z",
           *         "modificationDate": "2026-03-02T14:30:01.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['ReceivableAccount'][];
        };
      };
      /** @description Lookup by clientTaxId found nothing */
      204: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createReceivableAccount: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key': string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "clientId": 12,
         *       "associateId": 7,
         *       "currencyCode": "ARS"
         *     }
         */
        'application/json': components['schemas']['ReceivableAccountInput'];
      };
    };
    responses: {
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "cvu": null,
           *       "alias": null,
           *       "currencyCode": "ARS",
           *       "status": "PROVISIONING",
           *       "disabledReason": null,
           *       "disabledMessage": null,
           *       "owner": {
           *         "type": "CLIENT_AND_ASSOCIATE",
           *         "clientId": 12,
           *         "associateId": 7
           *       },
           *       "stats": {
           *         "pendingAmount": 0
           *       },
           *       "creationDate": "2026-03-02T14:30:00.000Z",
           *       "modificationDate": "2026-03-02T14:30:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ReceivableAccount'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it); resource-not-accessible: the client or associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no client or associate has the clientId or associateId */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; receivable-account-already-exists: the owners have an account in this currency already (existingResourceId names it) */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification' | 'receivable-account-already-exists';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-requires-owner: neither clientId nor associateId; owner-type-not-supported: the customer's account template does not take this kind of owner; associate-disabled: the associate is DISABLED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-requires-owner' | 'owner-type-not-supported' | 'associate-disabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createReceivableAccountBatch: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key': string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "items": [
         *         {
         *           "clientId": 12,
         *           "associateId": 7,
         *           "currencyCode": "ARS"
         *         },
         *         {
         *           "clientId": 13
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ReceivableAccountBatchRequest'];
      };
    };
    responses: {
      /** @description One result per item, in order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "results": [
           *         {
           *           "index": 0,
           *           "status": 201,
           *           "receivableAccount": {
           *             "id": 31,
           *             "cvu": null,
           *             "alias": null,
           *             "currencyCode": "ARS",
           *             "status": "PROVISIONING",
           *             "disabledReason": null,
           *             "disabledMessage": null,
           *             "owner": {
           *               "type": "CLIENT_AND_ASSOCIATE",
           *               "clientId": 12,
           *               "associateId": 7
           *             },
           *             "stats": {
           *               "pendingAmount": 0
           *             },
           *             "creationDate": "2026-03-02T14:30:00.000Z",
           *             "modificationDate": "2026-03-02T14:30:00.000Z"
           *           }
           *         },
           *         {
           *           "index": 1,
           *           "status": 404,
           *           "error": {
           *             "type": "https://docs.receivables.example/errors/resource-not-found",
           *             "title": "Resource not found",
           *             "status": 404,
           *             "detail": "client 13 not found",
           *             "code": "resource-not-found"
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['ReceivableAccountBatchResponse'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getReceivableAccount: {
    parameters: {
      query?: {
        /** @description owner: add names and tax ids of the owners */
        expand?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Account */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "cvu": "0000003100098765432109",
           *       "alias": "norte.pereyra.31",
           *       "currencyCode": "ARS",
           *       "status": "ACTIVE",
           *       "disabledReason": null,
           *       "disabledMessage": null,
           *       "owner": {
           *         "type": "CLIENT_AND_ASSOCIATE",
           *         "clientId": 12,
           *         "associateId": 7
           *       },
           *       "stats": {
           *         "pendingAmount": 15000.5
           *       },
           *       "creationDate": "2026-03-02T14:30:00.000Z",
           *       "modificationDate": "2026-03-02T14:30:01.000Z"
           *     }
           */
          'application/json': components['schemas']['ReceivableAccount'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:read (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  updateReceivableAccount: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "alias": "norte.lucia.31"
         *     }
         */
        'application/json': components['schemas']['ReceivableAccountUpdate'];
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "cvu": "0000003100098765432109",
           *       "alias": "norte.lucia.31",
           *       "currencyCode": "ARS",
           *       "status": "ACTIVE",
           *       "disabledReason": null,
           *       "disabledMessage": null,
           *       "owner": {
           *         "type": "CLIENT_AND_ASSOCIATE",
           *         "clientId": 12,
           *         "associateId": 7
           *       },
           *       "stats": {
           *         "pendingAmount": 15000.5
           *       },
           *       "creationDate": "2026-03-02T14:30:00.000Z",
           *       "modificationDate": "2026-03-02T14:30:01.000Z"
           *     }
           */
          'application/json': components['schemas']['ReceivableAccount'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment, or another request the account's alias while the provider registered this one; read it again and retry; receivable-account-already-exists: binding the associate would give the owners a second account in this currency; alias-already-in-use: another account has this alias in any letter case, here or at any bank (the banking provider registers each alias for one account's CVU before it is stored), or it has the form of the aliases the service generates */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency-key-reuse'
              | 'idempotency-request-in-progress'
              | 'concurrent-modification'
              | 'receivable-account-already-exists'
              | 'alias-already-in-use';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-owner-immutable: the account has an associate already and its CVU is active; owner-type-not-supported: binding the associate would make the account CLIENT_AND_ASSOCIATE, which the customer's account template does not take; associate-disabled: the associate is DISABLED; invalid-status-transition: an alias for an account that has no CVU yet, or a DISABLED one */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-owner-immutable' | 'owner-type-not-supported' | 'associate-disabled' | 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
      /** @description external-provider-unavailable: the banking provider could not register the alias (down, or a bad answer); nothing was changed, retry */
      502: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-unavailable';
          };
        };
      };
      /** @description external-provider-timeout: the banking provider did not register the alias in time; nothing was changed, retry */
      504: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-timeout';
          };
        };
      };
    };
  };
  disableReceivableAccount: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Disabled */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description invalid-status-transition: the account is DISABLED already */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  activateReceivableAccount: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Re-enabled */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "cvu": "0000003100098765432109",
           *       "alias": "norte.pereyra.31",
           *       "currencyCode": "ARS",
           *       "status": "ACTIVE",
           *       "disabledReason": null,
           *       "disabledMessage": null,
           *       "owner": {
           *         "type": "CLIENT_AND_ASSOCIATE",
           *         "clientId": 12,
           *         "associateId": 7
           *       },
           *       "stats": {
           *         "pendingAmount": 15000.5
           *       },
           *       "creationDate": "2026-03-02T14:30:00.000Z",
           *       "modificationDate": "2026-03-02T14:30:01.000Z"
           *     }
           */
          'application/json': components['schemas']['ReceivableAccount'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description invalid-status-transition: the account is not DISABLED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listClientReceivableAccounts: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Owner associate */
        associateId?: number;
        /** @description CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE */
        ownerType?: string;
        /** @description The client's taxId (11 digits): the lookup of candidate accounts */
        clientTaxId?: string;
        /** @description The client's branch */
        branchExternalCode?: string;
        /** @description Exact, 22 digits */
        cvu?: string;
        /** @description Exact */
        alias?: string;
        /** @description PROVISIONING, ACTIVE (default) or DISABLED */
        status?: string;
        /** @description owner: add names and tax ids of the owners */
        expand?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 31,
           *         "cvu": "0000003100098765432109",
           *         "alias": "norte.pereyra.31",
           *         "currencyCode": "ARS",
           *         "status": "ACTIVE",
           *         "disabledReason": null,
           *         "disabledMessage": null,
           *         "owner": {
           *           "type": "CLIENT_AND_ASSOCIATE",
           *           "clientId": 12,
           *           "associateId": 7
           *         },
           *         "stats": {
           *           "pendingAmount": 15000.5
           *         },
           *         "creationDate": "2026-03-02T14:30:00.000Z",
           *         "modificationDate": "2026-03-02T14:30:01.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['ReceivableAccount'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:read (requiredScope names it); resource-not-accessible: the client is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no client has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listAssociateReceivableAccounts: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Owner client */
        clientId?: number;
        /** @description CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE */
        ownerType?: string;
        /** @description The client's taxId (11 digits): the lookup of candidate accounts */
        clientTaxId?: string;
        /** @description The client's branch */
        branchExternalCode?: string;
        /** @description Exact, 22 digits */
        cvu?: string;
        /** @description Exact */
        alias?: string;
        /** @description PROVISIONING, ACTIVE (default) or DISABLED */
        status?: string;
        /** @description owner: add names and tax ids of the owners */
        expand?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 31,
           *         "cvu": "0000003100098765432109",
           *         "alias": "norte.pereyra.31",
           *         "currencyCode": "ARS",
           *         "status": "ACTIVE",
           *         "disabledReason": null,
           *         "disabledMessage": null,
           *         "owner": {
           *           "type": "CLIENT_AND_ASSOCIATE",
           *           "clientId": 12,
           *           "associateId": 7
           *         },
           *         "stats": {
           *           "pendingAmount": 15000.5
           *         },
           *         "creationDate": "2026-03-02T14:30:00.000Z",
           *         "modificationDate": "2026-03-02T14:30:01.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['ReceivableAccount'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:read (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listReceivables: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Exact */
        receivableAccountId?: number;
        /** @description Exact */
        clientId?: number;
        /** @description Exact */
        associateId?: number;
        /** @description Exact */
        parentReceivableId?: number;
        /** @description PENDING, PAID, SETTLED, EXPIRED or DISABLED */
        status?: string;
        /** @description One of the receivable types */
        receivableType?: string;
        /** @description YYYY-MM-DD, inclusive */
        fromDueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        toDueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        fromIssueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        toIssueDate?: string;
        /** @description Exact */
        legalNumber?: string;
        /** @description Exact */
        externalRoutingCode?: string;
        /** @description Decimal, inclusive */
        minAmount?: string;
        /** @description Decimal, inclusive */
        maxAmount?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 501,
           *         "receivableAccountId": 31,
           *         "clientId": 12,
           *         "associateId": 7,
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "receivableType": "INVOICE",
           *         "status": "PENDING",
           *         "legalNumber": "A-0001-00001234",
           *         "description": "March deliveries",
           *         "externalRoutingCode": "ROUTE-N-12",
           *         "issueDate": "2026-03-01",
           *         "dueDate": "2026-03-31",
           *         "receivableDate": "2026-03-02",
           *         "parentReceivableId": null,
           *         "attachmentUri": null,
           *         "invoiceData": null,
           *         "creationDate": "2026-03-02T15:10:00.000Z",
           *         "modificationDate": "2026-03-02T15:10:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Receivable'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createReceivable: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key': string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "receivableAccountId": 31,
         *       "amount": "15000.50",
         *       "currencyCode": "ARS",
         *       "receivableType": "INVOICE",
         *       "legalNumber": "A-0001-00001234",
         *       "description": "March deliveries",
         *       "externalRoutingCode": "ROUTE-N-12",
         *       "issueDate": "2026-03-01",
         *       "dueDate": "2026-03-31"
         *     }
         */
        'application/json': components['schemas']['ReceivableInput'];
      };
    };
    responses: {
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 501,
           *       "receivableAccountId": 31,
           *       "clientId": 12,
           *       "associateId": 7,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "receivableType": "INVOICE",
           *       "status": "PENDING",
           *       "legalNumber": "A-0001-00001234",
           *       "description": "March deliveries",
           *       "externalRoutingCode": "ROUTE-N-12",
           *       "issueDate": "2026-03-01",
           *       "dueDate": "2026-03-31",
           *       "receivableDate": "2026-03-02",
           *       "parentReceivableId": null,
           *       "attachmentUri": null,
           *       "invoiceData": null,
           *       "creationDate": "2026-03-02T15:10:00.000Z",
           *       "modificationDate": "2026-03-02T15:10:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Receivable'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it); resource-not-accessible: the account, parent, clientId or associateId is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no account, parent, client or associate has the id given */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; duplicated-legal-number: another receivable of the customer has this legalNumber; receivable-account-already-exists: binding associateId to the account would give its owners a second account in this currency (existingResourceId names it) */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency-key-reuse'
              | 'idempotency-request-in-progress'
              | 'concurrent-modification'
              | 'duplicated-legal-number'
              | 'receivable-account-already-exists';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description current-account-not-receivable-enabled: the customer's current account does not take collections; receivable-account-not-active: the account is not ACTIVE; unmatching-receivable-currency-code: currencyCode is not the account's; unmatching-receivable-client-id: clientId is not the account's client; receivable-account-associate-conflict: associateId is not the account's associate; owner-type-not-supported: binding associateId to the account would make it CLIENT_AND_ASSOCIATE, which the customer's account template does not take; associate-disabled: the associate is DISABLED; missing-parent-receivable: a negative type (credit note, return...) without parentReceivableId; parent-receivable-not-modifiable: the parent is not PENDING or PAID; parent-receivable-different-account: the parent is on another account; parent-receivable-invalid-type: the parent is of a negative type, or a positive type names a parent; child-receivables-exceed-parent-amount: the children would add up to more than the parent's amount; missing-invoice-fields: invoiceData lacks a required member (missingFields lists them) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'current-account-not-receivable-enabled'
              | 'receivable-account-not-active'
              | 'unmatching-receivable-currency-code'
              | 'unmatching-receivable-client-id'
              | 'receivable-account-associate-conflict'
              | 'owner-type-not-supported'
              | 'associate-disabled'
              | 'missing-parent-receivable'
              | 'parent-receivable-not-modifiable'
              | 'parent-receivable-different-account'
              | 'parent-receivable-invalid-type'
              | 'child-receivables-exceed-parent-amount'
              | 'missing-invoice-fields';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createReceivableBatch: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key': string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "items": [
         *         {
         *           "receivableAccountId": 31,
         *           "amount": "15000.50",
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31"
         *         },
         *         {
         *           "receivableAccountId": 31,
         *           "amount": 1200,
         *           "currencyCode": "ARS",
         *           "receivableType": "CREDIT_NOTE",
         *           "parentReceivableId": 501,
         *           "description": "Two boxes returned"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ReceivableBatchRequest'];
      };
    };
    responses: {
      /** @description One result per item, in order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "results": [
           *         {
           *           "index": 0,
           *           "status": 201,
           *           "receivable": {
           *             "id": 501,
           *             "receivableAccountId": 31,
           *             "clientId": 12,
           *             "associateId": 7,
           *             "amount": 15000.5,
           *             "currencyCode": "ARS",
           *             "receivableType": "INVOICE",
           *             "status": "PENDING",
           *             "legalNumber": "A-0001-00001234",
           *             "description": "March deliveries",
           *             "externalRoutingCode": "ROUTE-N-12",
           *             "issueDate": "2026-03-01",
           *             "dueDate": "2026-03-31",
           *             "receivableDate": "2026-03-02",
           *             "parentReceivableId": null,
           *             "attachmentUri": null,
           *             "invoiceData": null,
           *             "creationDate": "2026-03-02T15:10:00.000Z",
           *             "modificationDate": "2026-03-02T15:10:00.000Z"
           *           }
           *         },
           *         {
           *           "index": 1,
           *           "status": 404,
           *           "error": {
           *             "type": "https://docs.receivables.example/errors/resource-not-found",
           *             "title": "Resource not found",
           *             "status": 404,
           *             "detail": "receivable 501 not found",
           *             "code": "resource-not-found"
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['ReceivableBatchResponse'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getReceivable: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Receivable */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 501,
           *       "receivableAccountId": 31,
           *       "clientId": 12,
           *       "associateId": 7,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "receivableType": "INVOICE",
           *       "status": "PENDING",
           *       "legalNumber": "A-0001-00001234",
           *       "description": "March deliveries",
           *       "externalRoutingCode": "ROUTE-N-12",
           *       "issueDate": "2026-03-01",
           *       "dueDate": "2026-03-31",
           *       "receivableDate": "2026-03-02",
           *       "parentReceivableId": null,
           *       "attachmentUri": null,
           *       "invoiceData": null,
           *       "creationDate": "2026-03-02T15:10:00.000Z",
           *       "modificationDate": "2026-03-02T15:10:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Receivable'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:read (requiredScope names it); resource-not-accessible: the receivable is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  updateReceivable: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "description": "March deliveries, second route",
         *       "dueDate": "2026-04-15"
         *     }
         */
        'application/json': components['schemas']['ReceivableEdit'];
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 501,
           *       "receivableAccountId": 31,
           *       "clientId": 12,
           *       "associateId": 7,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "receivableType": "INVOICE",
           *       "status": "PENDING",
           *       "legalNumber": "A-0001-00001234",
           *       "description": "March deliveries, second route",
           *       "externalRoutingCode": "ROUTE-N-12",
           *       "issueDate": "2026-03-01",
           *       "dueDate": "2026-04-15",
           *       "receivableDate": "2026-03-02",
           *       "parentReceivableId": null,
           *       "attachmentUri": null,
           *       "invoiceData": null,
           *       "creationDate": "2026-03-02T15:10:00.000Z",
           *       "modificationDate": "2026-03-02T15:10:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Receivable'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it); resource-not-accessible: the receivable is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; duplicated-legal-number: another receivable of the customer has this legalNumber */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification' | 'duplicated-legal-number';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description updating-receivable-final-status: the receivable is SETTLED or DISABLED; invalid-status-transition: amount changes after PENDING; child-receivables-exceed-parent-amount: the children would add up to more than the parent's amount; missing-invoice-fields: invoiceData lacks a required member (missingFields lists them) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'updating-receivable-final-status' | 'invalid-status-transition' | 'child-receivables-exceed-parent-amount' | 'missing-invoice-fields';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  changeReceivableStatus: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "status": "PAID"
         *     }
         */
        'application/json': components['schemas']['ReceivableStatusInput'];
      };
    };
    responses: {
      /** @description Moved */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 501,
           *       "receivableAccountId": 31,
           *       "clientId": 12,
           *       "associateId": 7,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "receivableType": "INVOICE",
           *       "status": "PAID",
           *       "legalNumber": "A-0001-00001234",
           *       "description": "March deliveries",
           *       "externalRoutingCode": "ROUTE-N-12",
           *       "issueDate": "2026-03-01",
           *       "dueDate": "2026-03-31",
           *       "receivableDate": "2026-03-02",
           *       "parentReceivableId": null,
           *       "attachmentUri": null,
           *       "invoiceData": null,
           *       "creationDate": "2026-03-02T15:10:00.000Z",
           *       "modificationDate": "2026-03-02T15:10:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Receivable'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it); resource-not-accessible: the receivable is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description updating-receivable-final-status: the receivable is SETTLED or DISABLED, whatever is asked; invalid-status-transition: the move is not allowed from the current status; receivable-has-related-items: cancelling a receivable that has active children */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'updating-receivable-final-status' | 'invalid-status-transition' | 'receivable-has-related-items';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listReceivableAccountReceivables: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Exact */
        clientId?: number;
        /** @description Exact */
        associateId?: number;
        /** @description Exact */
        parentReceivableId?: number;
        /** @description PENDING, PAID, SETTLED, EXPIRED or DISABLED */
        status?: string;
        /** @description One of the receivable types */
        receivableType?: string;
        /** @description YYYY-MM-DD, inclusive */
        fromDueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        toDueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        fromIssueDate?: string;
        /** @description YYYY-MM-DD, inclusive */
        toIssueDate?: string;
        /** @description Exact */
        legalNumber?: string;
        /** @description Exact */
        externalRoutingCode?: string;
        /** @description Decimal, inclusive */
        minAmount?: string;
        /** @description Decimal, inclusive */
        maxAmount?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 501,
           *         "receivableAccountId": 31,
           *         "clientId": 12,
           *         "associateId": 7,
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "receivableType": "INVOICE",
           *         "status": "PENDING",
           *         "legalNumber": "A-0001-00001234",
           *         "description": "March deliveries",
           *         "externalRoutingCode": "ROUTE-N-12",
           *         "issueDate": "2026-03-01",
           *         "dueDate": "2026-03-31",
           *         "receivableDate": "2026-03-02",
           *         "parentReceivableId": null,
           *         "attachmentUri": null,
           *         "invoiceData": null,
           *         "creationDate": "2026-03-02T15:10:00.000Z",
           *         "modificationDate": "2026-03-02T15:10:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Receivable'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:read (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listRouteSettlements: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Exact */
        associateId?: number;
        /** @description Exact */
        routeCode?: string;
        /** @description On the settlement day, YYYY-MM-DD */
        fromDate?: string;
        /** @description On the settlement day, YYYY-MM-DD */
        toDate?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 4,
           *         "routeCode": "ROUTE-N-12",
           *         "date": "2026-03-02",
           *         "associateId": 7,
           *         "receivableAccountIds": [
           *           31
           *         ],
           *         "summary": {
           *           "receivablesCount": 2,
           *           "totalAmount": 13800.5,
           *           "byReceivableType": [
           *             {
           *               "type": "INVOICE",
           *               "count": 1,
           *               "amount": 15000.5
           *             },
           *             {
           *               "type": "CREDIT_NOTE",
           *               "count": 1,
           *               "amount": -1200
           *             }
           *           ]
           *         },
           *         "creationDate": "2026-03-02T09:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['RouteSettlement'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks route-settlements:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createRouteSettlement: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "routeCode": "ROUTE-N-12",
         *       "date": "2026-03-02",
         *       "associateId": 7
         *     }
         */
        'application/json': components['schemas']['RouteSettlementInput'];
      };
    };
    responses: {
      /** @description Existing */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 4,
           *       "routeCode": "ROUTE-N-12",
           *       "date": "2026-03-02",
           *       "associateId": 7,
           *       "receivableAccountIds": [
           *         31
           *       ],
           *       "summary": {
           *         "receivablesCount": 2,
           *         "totalAmount": 13800.5,
           *         "byReceivableType": [
           *           {
           *             "type": "INVOICE",
           *             "count": 1,
           *             "amount": 15000.5
           *           },
           *           {
           *             "type": "CREDIT_NOTE",
           *             "count": 1,
           *             "amount": -1200
           *           }
           *         ]
           *       },
           *       "creationDate": "2026-03-02T09:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['RouteSettlement'];
        };
      };
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 4,
           *       "routeCode": "ROUTE-N-12",
           *       "date": "2026-03-02",
           *       "associateId": 7,
           *       "receivableAccountIds": [
           *         31
           *       ],
           *       "summary": {
           *         "receivablesCount": 2,
           *         "totalAmount": 13800.5,
           *         "byReceivableType": [
           *           {
           *             "type": "INVOICE",
           *             "count": 1,
           *             "amount": 15000.5
           *           },
           *           {
           *             "type": "CREDIT_NOTE",
           *             "count": 1,
           *             "amount": -1200
           *           }
           *         ]
           *       },
           *       "creationDate": "2026-03-02T09:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['RouteSettlement'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks route-settlements:write (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has the associateId */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; route-code-already-used: the code has a settlement on this date for another associate */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification' | 'route-code-already-used';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description route-code-already-used: the code belongs to another date; associate-disabled: the associate is DISABLED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'route-code-already-used' | 'associate-disabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getRouteSettlement: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The route code */
        routeCode: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Route settlement */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 4,
           *       "routeCode": "ROUTE-N-12",
           *       "date": "2026-03-02",
           *       "associateId": 7,
           *       "receivableAccountIds": [
           *         31
           *       ],
           *       "summary": {
           *         "receivablesCount": 2,
           *         "totalAmount": 13800.5,
           *         "byReceivableType": [
           *           {
           *             "type": "INVOICE",
           *             "count": 1,
           *             "amount": 15000.5
           *           },
           *           {
           *             "type": "CREDIT_NOTE",
           *             "count": 1,
           *             "amount": -1200
           *           }
           *         ]
           *       },
           *       "creationDate": "2026-03-02T09:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['RouteSettlement'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks route-settlements:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: the caller's customer has no route settlement with this routeCode (codes are per customer: another customer's is not named here) */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listRouteSettlementReceivables: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The route code */
        routeCode: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 501,
           *         "receivableAccountId": 31,
           *         "clientId": 12,
           *         "associateId": 7,
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "receivableType": "INVOICE",
           *         "status": "PENDING",
           *         "legalNumber": "A-0001-00001234",
           *         "description": "March deliveries",
           *         "externalRoutingCode": "ROUTE-N-12",
           *         "issueDate": "2026-03-01",
           *         "dueDate": "2026-03-31",
           *         "receivableDate": "2026-03-02",
           *         "parentReceivableId": null,
           *         "attachmentUri": null,
           *         "invoiceData": null,
           *         "creationDate": "2026-03-02T15:10:00.000Z",
           *         "modificationDate": "2026-03-02T15:10:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Receivable'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: the caller's customer has no route settlement with this routeCode (codes are per customer: another customer's is not named here) */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listAssociateRouteSettlements: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Exact */
        routeCode?: string;
        /** @description On the settlement day, YYYY-MM-DD */
        fromDate?: string;
        /** @description On the settlement day, YYYY-MM-DD */
        toDate?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 4,
           *         "routeCode": "ROUTE-N-12",
           *         "date": "2026-03-02",
           *         "associateId": 7,
           *         "receivableAccountIds": [
           *           31
           *         ],
           *         "summary": {
           *           "receivablesCount": 2,
           *           "totalAmount": 13800.5,
           *           "byReceivableType": [
           *             {
           *               "type": "INVOICE",
           *               "count": 1,
           *               "amount": 15000.5
           *             },
           *             {
           *               "type": "CREDIT_NOTE",
           *               "count": 1,
           *               "amount": -1200
           *             }
           *           ]
           *         },
           *         "creationDate": "2026-03-02T09:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['RouteSettlement'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks route-settlements:read (requiredScope names it); resource-not-accessible: the associate is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no associate has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listCurrentAccounts: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description MAIN or SUB */
        accountType?: string;
        /** @description ACTIVE or DISABLED */
        status?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 2,
           *         "accountType": "MAIN",
           *         "cvu": "0000003100012345678901",
           *         "alias": "norte.cobros.main",
           *         "currencyCode": "ARS",
           *         "status": "ACTIVE",
           *         "lastSettlementDate": "2026-03-05T13:00:00.000Z",
           *         "creationDate": "2026-01-10T10:00:00.000Z",
           *         "modificationDate": "2026-03-05T13:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['CurrentAccount'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getCurrentAccount: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Current account */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 2,
           *       "accountType": "MAIN",
           *       "cvu": "0000003100012345678901",
           *       "alias": "norte.cobros.main",
           *       "currencyCode": "ARS",
           *       "status": "ACTIVE",
           *       "lastSettlementDate": "2026-03-05T13:00:00.000Z",
           *       "creationDate": "2026-01-10T10:00:00.000Z",
           *       "modificationDate": "2026-03-05T13:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['CurrentAccount'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it); resource-not-accessible: the current account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no current account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getCurrentAccountBalances: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Balances */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "currentAccountId": 2,
           *       "currencyCode": "ARS",
           *       "totalBalance": 15000.5,
           *       "balanceByWallet": {
           *         "CVU": 15000.5,
           *         "CASH": 0,
           *         "CVU_TAX": 0
           *       },
           *       "asOf": "2026-03-05T13:05:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Balances'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it); resource-not-accessible: the current account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no current account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listCurrentAccountMovements: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description -movementDate (default) or movementDate */
        sort?: string;
        /** @description movementDate >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description movementDate <= (inclusive) */
        toDate?: string;
        /** @description CREDIT or DEBIT */
        movementType?: string;
        /** @description DEPOSIT, SETTLEMENT or TRANSFER */
        operationType?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 9002,
           *         "currentAccountId": 2,
           *         "movementType": "CREDIT",
           *         "operationType": "SETTLEMENT",
           *         "subtype": "SETTLEMENT_IN",
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "counterParty": null,
           *         "settlementId": 88,
           *         "transferId": null,
           *         "movementDate": "2026-03-05T13:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Movement'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it); resource-not-accessible: the current account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no current account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listReceivableAccountMovements: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description -movementDate (default) or movementDate */
        sort?: string;
        /** @description movementDate >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description movementDate <= (inclusive) */
        toDate?: string;
        /** @description CREDIT or DEBIT */
        movementType?: string;
        /** @description DEPOSIT, SETTLEMENT or TRANSFER */
        operationType?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 9001,
           *         "receivableAccountId": 31,
           *         "movementType": "CREDIT",
           *         "operationType": "DEPOSIT",
           *         "subtype": null,
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "counterParty": {
           *           "name": "Almacén Don José",
           *           "taxId": "20123456786"
           *         },
           *         "settlementId": null,
           *         "transferId": null,
           *         "movementDate": "2026-03-05T12:30:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Movement'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:read (requiredScope names it); resource-not-accessible: the receivable account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listSettlements: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description Exact */
        receivableAccountId?: number;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 88,
           *         "receivableAccountId": 31,
           *         "currentAccountId": 2,
           *         "amount": 15000.5,
           *         "currencyCode": "ARS",
           *         "receivablesCount": 1,
           *         "receivableIds": [
           *           501
           *         ],
           *         "settlementDate": "2026-03-05T13:00:00.000Z",
           *         "creationDate": "2026-03-05T13:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Settlement'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getSettlement: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Settlement */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 88,
           *       "receivableAccountId": 31,
           *       "currentAccountId": 2,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "receivablesCount": 1,
           *       "receivableIds": [
           *         501
           *       ],
           *       "settlementDate": "2026-03-05T13:00:00.000Z",
           *       "creationDate": "2026-03-05T13:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Settlement'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks current-accounts:read (requiredScope names it); resource-not-accessible: the settlement is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no settlement has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listTransfers: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description OUTGOING_TRANSFER or INTERNAL_TRANSFER */
        type?: 'OUTGOING_TRANSFER' | 'INTERNAL_TRANSFER';
        /** @description Exact */
        status?: 'PENDING_APPROVAL' | 'SCHEDULED' | 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
        /** @description Exact */
        sourceAccountId?: number;
        /** @description Exact */
        externalId?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 301,
           *         "type": "OUTGOING_TRANSFER",
           *         "status": "PENDING",
           *         "sourceAccountId": 2,
           *         "amount": 250000.5,
           *         "currencyCode": "ARS",
           *         "destination": {
           *           "cbuCvu": "0110599500000123456784",
           *           "alias": null,
           *           "accountId": null,
           *           "counterParty": {
           *             "name": "Proveedor SA",
           *             "taxId": "30712345671"
           *           }
           *         },
           *         "contactId": null,
           *         "description": "Pago factura A-0001-00001234",
           *         "externalId": "ERP-PAY-0042",
           *         "scheduledDate": null,
           *         "creationDate": "2026-03-05T14:00:00.000Z",
           *         "modificationDate": "2026-03-05T14:00:00.000Z",
           *         "executionDate": null,
           *         "failureReason": null
           *       }
           *     ]
           */
          'application/json': components['schemas']['Transfer'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createTransfer: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "OUTGOING_TRANSFER",
         *       "sourceAccountId": 2,
         *       "amount": "250000.50",
         *       "currencyCode": "ARS",
         *       "destination": {
         *         "cbuCvu": "0110599500000123456784",
         *         "counterParty": {
         *           "name": "Proveedor SA",
         *           "taxId": "30-71234567-1"
         *         }
         *       },
         *       "description": "Pago factura A-0001-00001234",
         *       "externalId": "ERP-PAY-0042"
         *     }
         */
        'application/json': components['schemas']['TransferInput'];
      };
    };
    responses: {
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "type": "OUTGOING_TRANSFER",
           *       "status": "PENDING",
           *       "sourceAccountId": 2,
           *       "amount": 250000.5,
           *       "currencyCode": "ARS",
           *       "destination": {
           *         "cbuCvu": "0110599500000123456784",
           *         "alias": null,
           *         "accountId": null,
           *         "counterParty": {
           *           "name": "Proveedor SA",
           *           "taxId": "30712345671"
           *         }
           *       },
           *       "contactId": null,
           *       "description": "Pago factura A-0001-00001234",
           *       "externalId": "ERP-PAY-0042",
           *       "scheduledDate": null,
           *       "creationDate": "2026-03-05T14:00:00.000Z",
           *       "modificationDate": "2026-03-05T14:00:00.000Z",
           *       "executionDate": null,
           *       "failureReason": null
           *     }
           */
          'application/json': components['schemas']['Transfer'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:write (requiredScope names it); resource-not-accessible: the source or destination account, or the recipient, is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no account has the sourceAccountId or destination.accountId, no recipient has the contactId, or no account has the destination.alias at the banking provider */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-not-transfer-enabled: the sourceAccountId or destination.accountId names a receivable account, not a current account; or an OUTGOING_TRANSFER’s CVU, alias or recipient names one of the caller’s; unmatching-transfer-currency-code: currencyCode is not the source account's; source-account-not-active: the source account is not ACTIVE; equal-origin-destination: the destination is the source account itself (by id, CBU/CVU or alias) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-not-transfer-enabled' | 'unmatching-transfer-currency-code' | 'source-account-not-active' | 'equal-origin-destination';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
      /** @description external-provider-unavailable: a destination naming an alias is resolved at the banking provider, which could not answer (down, or a bad answer); nothing was stored, retry */
      502: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-unavailable';
          };
        };
      };
      /** @description external-provider-timeout: the banking provider did not resolve the alias in time; nothing was stored, retry */
      504: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-timeout';
          };
        };
      };
    };
  };
  getTransfer: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Transfer */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "type": "OUTGOING_TRANSFER",
           *       "status": "PENDING",
           *       "sourceAccountId": 2,
           *       "amount": 250000.5,
           *       "currencyCode": "ARS",
           *       "destination": {
           *         "cbuCvu": "0110599500000123456784",
           *         "alias": null,
           *         "accountId": null,
           *         "counterParty": {
           *           "name": "Proveedor SA",
           *           "taxId": "30712345671"
           *         }
           *       },
           *       "contactId": null,
           *       "description": "Pago factura A-0001-00001234",
           *       "externalId": "ERP-PAY-0042",
           *       "scheduledDate": null,
           *       "creationDate": "2026-03-05T14:00:00.000Z",
           *       "modificationDate": "2026-03-05T14:00:00.000Z",
           *       "executionDate": null,
           *       "failureReason": null
           *     }
           */
          'application/json': components['schemas']['Transfer'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:read (requiredScope names it); resource-not-accessible: the transfer is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no transfer has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  cancelTransfer: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Cancelled */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "type": "OUTGOING_TRANSFER",
           *       "status": "CANCELLED",
           *       "sourceAccountId": 2,
           *       "amount": 250000.5,
           *       "currencyCode": "ARS",
           *       "destination": {
           *         "cbuCvu": "0110599500000123456784",
           *         "alias": null,
           *         "accountId": null,
           *         "counterParty": {
           *           "name": "Proveedor SA",
           *           "taxId": "30712345671"
           *         }
           *       },
           *       "contactId": null,
           *       "description": "Pago factura A-0001-00001234",
           *       "externalId": "ERP-PAY-0042",
           *       "scheduledDate": "2026-03-10",
           *       "creationDate": "2026-03-05T14:00:00.000Z",
           *       "modificationDate": "2026-03-05T15:00:00.000Z",
           *       "executionDate": null,
           *       "failureReason": null
           *     }
           */
          'application/json': components['schemas']['Transfer'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:write (requiredScope names it); resource-not-accessible: the transfer is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no transfer has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description transfer-not-cancelable: the transfer is not SCHEDULED or PENDING_APPROVAL */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'transfer-not-cancelable';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  approveTransfer: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Approved */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "type": "OUTGOING_TRANSFER",
           *       "status": "SCHEDULED",
           *       "sourceAccountId": 2,
           *       "amount": 250000.5,
           *       "currencyCode": "ARS",
           *       "destination": {
           *         "cbuCvu": "0110599500000123456784",
           *         "alias": null,
           *         "accountId": null,
           *         "counterParty": {
           *           "name": "Proveedor SA",
           *           "taxId": "30712345671"
           *         }
           *       },
           *       "contactId": null,
           *       "description": "Pago factura A-0001-00001234",
           *       "externalId": "ERP-PAY-0042",
           *       "scheduledDate": "2026-03-10",
           *       "creationDate": "2026-03-05T14:00:00.000Z",
           *       "modificationDate": "2026-03-05T15:00:00.000Z",
           *       "executionDate": null,
           *       "failureReason": null
           *     }
           */
          'application/json': components['schemas']['Transfer'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:approve (requiredScope names it); resource-not-accessible: the transfer is another customer's; forbidden: this credential created the transfer; another must approve it */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible' | 'forbidden';
          };
        };
      };
      /** @description resource-not-found: no transfer has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description invalid-status-transition: the transfer is not PENDING_APPROVAL (only transfers of a customer with approval control wait for approval) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  rejectTransfer: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rejected */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "type": "OUTGOING_TRANSFER",
           *       "status": "CANCELLED",
           *       "sourceAccountId": 2,
           *       "amount": 250000.5,
           *       "currencyCode": "ARS",
           *       "destination": {
           *         "cbuCvu": "0110599500000123456784",
           *         "alias": null,
           *         "accountId": null,
           *         "counterParty": {
           *           "name": "Proveedor SA",
           *           "taxId": "30712345671"
           *         }
           *       },
           *       "contactId": null,
           *       "description": "Pago factura A-0001-00001234",
           *       "externalId": "ERP-PAY-0042",
           *       "scheduledDate": "2026-03-10",
           *       "creationDate": "2026-03-05T14:00:00.000Z",
           *       "modificationDate": "2026-03-05T15:00:00.000Z",
           *       "executionDate": null,
           *       "failureReason": null
           *     }
           */
          'application/json': components['schemas']['Transfer'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:approve (requiredScope names it); resource-not-accessible: the transfer is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no transfer has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description invalid-status-transition: the transfer is not PENDING_APPROVAL (only transfers of a customer with approval control wait for approval) */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid-status-transition';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listContacts: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description 11 digits (dashes allowed) */
        taxId?: string;
        /** @description Exact, in any letter case */
        alias?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 31,
           *         "name": "Distribuidora Norte SA",
           *         "taxId": "30712345671",
           *         "cbuCvu": "0070999030004123456787",
           *         "alias": "norte.pagos",
           *         "entity": "Banco de Galicia y Buenos Aires",
           *         "creationDate": "2026-03-02T13:45:00.000Z",
           *         "modificationDate": "2026-03-02T13:45:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Contact'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks contacts:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createContact: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Distribuidora Norte SA",
         *       "taxId": "30-71234567-1",
         *       "alias": "norte.pagos"
         *     }
         */
        'application/json': components['schemas']['ContactInput'];
      };
    };
    responses: {
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "name": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "cbuCvu": "0070999030004123456787",
           *       "alias": "norte.pagos",
           *       "entity": "Banco de Galicia y Buenos Aires",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Contact'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks contacts:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: no account has the alias, here or at the banking provider */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; duplicated-contact: another recipient of the customer has this cbuCvu, or this alias in any letter case (existingResourceId names it) */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification' | 'duplicated-contact';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-not-transfer-enabled: the cbuCvu or alias names your own receivable account, which no transfer pays */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-not-transfer-enabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
      /** @description external-provider-unavailable: the banking provider could not resolve the alias (down, or a bad answer); nothing was stored, retry */
      502: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-unavailable';
          };
        };
      };
      /** @description external-provider-timeout: the banking provider did not resolve the alias in time; nothing was stored, retry */
      504: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-timeout';
          };
        };
      };
    };
  };
  getContact: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Recipient */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "name": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "cbuCvu": "0070999030004123456787",
           *       "alias": "norte.pagos",
           *       "entity": "Banco de Galicia y Buenos Aires",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Contact'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks contacts:read (requiredScope names it); resource-not-accessible: the recipient is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no recipient has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  replaceContact: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Distribuidora Norte SA",
         *       "taxId": "30-71234567-1",
         *       "alias": "norte.pagos"
         *     }
         */
        'application/json': components['schemas']['ContactInput'];
      };
    };
    responses: {
      /** @description Replaced */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 31,
           *       "name": "Distribuidora Norte SA",
           *       "taxId": "30712345671",
           *       "cbuCvu": "0070999030004123456787",
           *       "alias": "norte.pagos",
           *       "entity": "Banco de Galicia y Buenos Aires",
           *       "creationDate": "2026-03-02T13:45:00.000Z",
           *       "modificationDate": "2026-03-02T13:45:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Contact'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks contacts:write (requiredScope names it); resource-not-accessible: the recipient is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no recipient has this id, or no account has the alias, here or at the banking provider */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe; duplicated-contact: another recipient of the customer has this cbuCvu, or this alias in any letter case (existingResourceId names it) */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification' | 'duplicated-contact';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-not-transfer-enabled: the cbuCvu or alias names your own receivable account, which no transfer pays */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-not-transfer-enabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
      /** @description external-provider-unavailable: the banking provider could not resolve the alias (down, or a bad answer); nothing was stored, retry */
      502: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-unavailable';
          };
        };
      };
      /** @description external-provider-timeout: the banking provider did not resolve the alias in time; nothing was stored, retry */
      504: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'external-provider-timeout';
          };
        };
      };
    };
  };
  deleteContact: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks contacts:write (requiredScope names it); resource-not-accessible: the recipient is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no recipient has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description -createdAt (the default: newest first) or feed (oldest first, to follow; see above) */
        sort?: '-createdAt' | 'feed';
        /** @description Exact event type (not with sort=feed) */
        type?:
          | 'receivable-account.activated'
          | 'receivable-account.disabled'
          | 'receivable.created'
          | 'receivable.paid'
          | 'receivable.reopened'
          | 'receivable.expired'
          | 'receivable.disabled'
          | 'receivable.settled'
          | 'movement.created'
          | 'settlement.completed'
          | 'transfer.completed'
          | 'transfer.failed'
          | 'webhook.test';
        /** @description createdAt >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description createdAt <= (inclusive; a bare date includes the whole day; not with sort=feed) */
        toDate?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
           *         "type": "receivable.created",
           *         "createdAt": "2026-03-02T15:10:00.000Z",
           *         "data": {
           *           "receivable": {
           *             "id": 501,
           *             "receivableAccountId": 31,
           *             "clientId": 12,
           *             "associateId": 7,
           *             "amount": 15000.5,
           *             "currencyCode": "ARS",
           *             "receivableType": "INVOICE",
           *             "status": "PENDING",
           *             "legalNumber": "A-0001-00001234",
           *             "description": "March deliveries",
           *             "externalRoutingCode": "ROUTE-N-12",
           *             "issueDate": "2026-03-01",
           *             "dueDate": "2026-03-31",
           *             "receivableDate": "2026-03-02",
           *             "parentReceivableId": null,
           *             "attachmentUri": null,
           *             "invoiceData": null,
           *             "creationDate": "2026-03-02T15:10:00.000Z",
           *             "modificationDate": "2026-03-02T15:10:00.000Z"
           *           }
           *         }
           *       }
           *     ]
           */
          'application/json': components['schemas']['Event'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The event id (evt_…), the webhook-id of its deliveries */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Event */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
           *       "type": "receivable.created",
           *       "createdAt": "2026-03-02T15:10:00.000Z",
           *       "data": {
           *         "receivable": {
           *           "id": 501,
           *           "receivableAccountId": 31,
           *           "clientId": 12,
           *           "associateId": 7,
           *           "amount": 15000.5,
           *           "currencyCode": "ARS",
           *           "receivableType": "INVOICE",
           *           "status": "PENDING",
           *           "legalNumber": "A-0001-00001234",
           *           "description": "March deliveries",
           *           "externalRoutingCode": "ROUTE-N-12",
           *           "issueDate": "2026-03-01",
           *           "dueDate": "2026-03-31",
           *           "receivableDate": "2026-03-02",
           *           "parentReceivableId": null,
           *           "attachmentUri": null,
           *           "invoiceData": null,
           *           "creationDate": "2026-03-02T15:10:00.000Z",
           *           "modificationDate": "2026-03-02T15:10:00.000Z"
           *         }
           *       }
           *     }
           */
          'application/json': components['schemas']['Event'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:read (requiredScope names it); resource-not-accessible: the event is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no event has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description Comma-separated ids */
        ids?: string;
        /** @description Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999) */
        fromDate?: string;
        /** @description Creation date <= (inclusive; a bare date includes the whole day) */
        toDate?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 12,
           *         "url": "https://erp.example/hooks/rcs",
           *         "events": [
           *           "receivable.paid",
           *           "movement.created"
           *         ],
           *         "status": "ACTIVE",
           *         "secretMaskedTail": "...Q3E=",
           *         "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *         "lastDeliveryStatus": "SUCCESS",
           *         "creationDate": "2026-03-02T14:00:00.000Z",
           *         "modificationDate": "2026-03-02T14:00:00.000Z"
           *       }
           *     ]
           */
          'application/json': components['schemas']['Webhook'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:read (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://erp.example/hooks/rcs",
         *       "events": [
         *         "receivable.paid",
         *         "movement.created"
         *       ]
         *     }
         */
        'application/json': components['schemas']['WebhookInput'];
      };
    };
    responses: {
      /** @description Created; Location names it */
      201: {
        headers: {
          Location: components['headers']['Location'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "ACTIVE",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z",
           *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8kPpPmYqQ3E="
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description validation: url is not an https URL (or, in production, its host does not resolve to a public address, or its nameservers failed just now), or events is empty; invalid-event-type: events names an event type that does not exist */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation' | 'invalid-event-type';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Webhook */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "ACTIVE",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:read (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "events": [
         *         "receivable.paid",
         *         "receivable.settled"
         *       ]
         *     }
         */
        'application/json': components['schemas']['WebhookUpdate'];
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "ACTIVE",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description validation: url is not an https URL (or, in production, its host does not resolve to a public address, or its nameservers failed just now), or events is empty; invalid-event-type: events names an event type that does not exist */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation' | 'invalid-event-type';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  pauseWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Paused */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "PAUSED",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description webhook-status-conflict: the webhook is not ACTIVE */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'webhook-status-conflict';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  activateWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Active again */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "ACTIVE",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description webhook-status-conflict: the webhook is ACTIVE already */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'webhook-status-conflict';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rotated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 12,
           *       "url": "https://erp.example/hooks/rcs",
           *       "events": [
           *         "receivable.paid",
           *         "movement.created"
           *       ],
           *       "status": "ACTIVE",
           *       "secretMaskedTail": "...Q3E=",
           *       "lastDeliveryAt": "2026-03-02T14:05:00.000Z",
           *       "lastDeliveryStatus": "SUCCESS",
           *       "creationDate": "2026-03-02T14:00:00.000Z",
           *       "modificationDate": "2026-03-02T14:00:00.000Z",
           *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8kPpPmYqQ3E="
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description 1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead */
        page?: number;
        /** @description Page size (default 20, max 200) */
        count?: number;
        /** @description Where the page starts: the cursor of the previous page's Link rel="next" (opaque; not with page) */
        cursor?: string;
        /** @description creationDate at or after (YYYY-MM-DD, that day in Buenos Aires, or a timestamp) */
        fromDate?: string;
        /** @description creationDate at or before (inclusive; a bare date includes the whole day) */
        toDate?: string;
        /** @description PENDING, SUCCESS, FAILED */
        status?: 'PENDING' | 'SUCCESS' | 'FAILED';
        /** @description Exact event type */
        eventType?:
          | 'receivable-account.activated'
          | 'receivable-account.disabled'
          | 'receivable.created'
          | 'receivable.paid'
          | 'receivable.reopened'
          | 'receivable.expired'
          | 'receivable.disabled'
          | 'receivable.settled'
          | 'movement.created'
          | 'settlement.completed'
          | 'transfer.completed'
          | 'transfer.failed'
          | 'webhook.test';
        /** @description Exact (evt_...) */
        eventId?: string;
      };
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of results, newest first; X-Total-Count carries the total, Link the next page */
      200: {
        headers: {
          'X-Total-Count': components['headers']['X-Total-Count'];
          Link: components['headers']['Link'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       {
           *         "id": 301,
           *         "webhookId": 12,
           *         "eventId": "evt_0Rz3kLp9aBcDeFgHiJkLmNoPq",
           *         "eventType": "webhook.test",
           *         "attempt": 1,
           *         "status": "SUCCESS",
           *         "responseCode": 200,
           *         "durationMs": 84,
           *         "failureReason": null,
           *         "creationDate": "2026-03-02T14:05:00.000Z",
           *         "attemptedAt": "2026-03-02T14:05:00.000Z",
           *         "nextAttemptAt": null
           *       }
           *     ]
           */
          'application/json': components['schemas']['WebhookDelivery'][];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:read (requiredScope names it); resource-not-accessible: the webhook is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  sendTestDelivery: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Resource id */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "eventType": "receivable.paid"
         *     }
         */
        'application/json': components['schemas']['DeliveryRequestInput'];
      };
    };
    responses: {
      /** @description The attempt and its result */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 301,
           *       "webhookId": 12,
           *       "eventId": "evt_0Rz3kLp9aBcDeFgHiJkLmNoPq",
           *       "eventType": "webhook.test",
           *       "attempt": 1,
           *       "status": "SUCCESS",
           *       "responseCode": 200,
           *       "durationMs": 84,
           *       "failureReason": null,
           *       "creationDate": "2026-03-02T14:05:00.000Z",
           *       "attemptedAt": "2026-03-02T14:05:00.000Z",
           *       "nextAttemptAt": null
           *     }
           */
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each; invalid-event-type: eventType is not an event type */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation' | 'invalid-event-type';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks webhooks:write (requiredScope names it); resource-not-accessible: the webhook or the event is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no webhook has this id, or no stored event has eventId (never, a test event, or purged past EVENT_RETENTION_DAYS) */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  createSandboxCollection: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "receivableAccountId": 31,
         *       "amount": "15000.50",
         *       "currencyCode": "ARS",
         *       "counterParty": {
         *         "name": "Almacén Don José",
         *         "taxId": "20-12345678-6"
         *       }
         *     }
         */
        'application/json': components['schemas']['CollectionInput'];
      };
    };
    responses: {
      /** @description The movement */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 9001,
           *       "receivableAccountId": 31,
           *       "movementType": "CREDIT",
           *       "operationType": "DEPOSIT",
           *       "subtype": null,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "counterParty": {
           *         "name": "Almacén Don José",
           *         "taxId": "20123456786"
           *       },
           *       "settlementId": null,
           *       "transferId": null,
           *       "movementDate": "2026-03-05T12:30:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Movement'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivable-accounts:write (requiredScope names it); resource-not-accessible: the account is another customer's */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope' | 'resource-not-accessible';
          };
        };
      };
      /** @description resource-not-found: no receivable account has the receivableAccountId (in production: the path) */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-not-active: the account is not ACTIVE; unmatching-movement-currency-code: currencyCode is not the account's; current-account-not-receivable-enabled: the customer's current account does not take collections */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-not-active' | 'unmatching-movement-currency-code' | 'current-account-not-receivable-enabled';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  runSandboxSettlement: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /** @example {} */
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description What the cycle did for the caller's customer */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "settlements": 1,
           *       "settledReceivables": 1,
           *       "settledAmount": 15000.5
           *     }
           */
          'application/json': components['schemas']['SettlementRun'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: in production: the path */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: some accounts met concurrent changes (a deadlock, or a row lock held past the lock wait) and were left as they were, the detail names them; the other accounts were settled. Sending the request again (the same key too) settles them */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  runSandboxExpiration: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "date": "2026-04-01"
         *     }
         */
        'application/json': components['schemas']['ExpirationRunInput'];
      };
    };
    responses: {
      /** @description How many receivables the run expired */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "expiredReceivables": 3
           *     }
           */
          'application/json': components['schemas']['ExpirationRun'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks receivables:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: in production: the path */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  runSandboxTransfers: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.
         * @example 8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10
         */
        'Idempotency-Key'?: string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "date": "2026-04-01"
         *     }
         */
        'application/json': components['schemas']['ExpirationRunInput'];
      };
    };
    responses: {
      /** @description What the run did to the caller's transfers */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "completed": 2,
           *       "failed": 1,
           *       "inProgress": 0
           *     }
           */
          'application/json': components['schemas']['TransferRun'];
        };
      };
      /** @description validation: a parameter, header or body member is malformed; invalidParams names each */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: no bearer token; invalid-token: the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued for; token-expired: the token is past its exp */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized' | 'invalid-token' | 'token-expired';
          };
        };
      };
      /** @description insufficient-scope: the token lacks transfers:write (requiredScope names it) */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient-scope';
          };
        };
      };
      /** @description resource-not-found: in production: the path */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: the Idempotency-Key was used with another body or on another operation; idempotency-request-in-progress: a request with this Idempotency-Key is still running; concurrent-modification: another transaction changed the same rows at the same moment; retrying is safe */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse' | 'idempotency-request-in-progress' | 'concurrent-modification';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description rate-limit-exceeded: the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate-limit-exceeded';
          };
        };
      };
      /** @description internal-error: an unexpected failure; requestId names it in the service log */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  receiveIncomingTransfer: {
    parameters: {
      query?: never;
      header: {
        /** @description sha256=<hex HMAC-SHA256 of the raw body> under BANK_NOTIFICATION_SECRET */
        'x-bank-signature': string;
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "notificationId": "trf-20260305-000123",
         *       "cvu": "0000003100098765432109",
         *       "amount": "15000.50",
         *       "currencyCode": "ARS",
         *       "counterParty": {
         *         "name": "Almacén Don José",
         *         "taxId": "20123456786"
         *       }
         *     }
         */
        'application/json': {
          /** @description The provider's transfer id; recorded once */
          notificationId: string;
          cvu: string;
          amount: number | string;
          /** @constant */
          currencyCode: 'ARS';
          counterParty: {
            name: string;
            /** @description The payer's, as the provider reports it: 11 digits (dashes and spaces dropped), prefix and check digit not judged */
            taxId: string;
          };
        };
      };
    };
    responses: {
      /** @description Already recorded under this notificationId */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 9001,
           *       "receivableAccountId": 31,
           *       "movementType": "CREDIT",
           *       "operationType": "DEPOSIT",
           *       "subtype": null,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "counterParty": {
           *         "name": "Almacén Don José",
           *         "taxId": "20123456786"
           *       },
           *       "settlementId": null,
           *       "transferId": null,
           *       "movementDate": "2026-03-05T12:30:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Movement'];
        };
      };
      /** @description Recorded */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 9001,
           *       "receivableAccountId": 31,
           *       "movementType": "CREDIT",
           *       "operationType": "DEPOSIT",
           *       "subtype": null,
           *       "amount": 15000.5,
           *       "currencyCode": "ARS",
           *       "counterParty": {
           *         "name": "Almacén Don José",
           *         "taxId": "20123456786"
           *       },
           *       "settlementId": null,
           *       "transferId": null,
           *       "movementDate": "2026-03-05T12:30:00.000Z"
           *     }
           */
          'application/json': components['schemas']['Movement'];
        };
      };
      /** @description validation: the body is malformed */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description unauthorized: the signature is missing or wrong */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /** @description resource-not-found: no receivable account has that CVU */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resource-not-found';
          };
        };
      };
      /** @description idempotency-key-reuse: this notificationId was recorded with another CVU, amount or currency: nothing more is recorded */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency-key-reuse';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: a body must be sent as application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description receivable-account-not-active: the account is not ACTIVE; unmatching-movement-currency-code: currencyCode is not the account's */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receivable-account-not-active' | 'unmatching-movement-currency-code';
          };
        };
      };
      /** @description internal-error: an unexpected failure; the provider retries */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'internal-error';
          };
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok",
           *       "database": "up"
           *     }
           */
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
      /** @description Database unreachable, or the service shutting down (SHUTDOWN_DRAIN_MS: still serving, take it out of rotation) */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "degraded",
           *       "database": "down"
           *     }
           */
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus' text exposition format */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /** @example rcs_http_requests_total{method="GET",route="/v1/receivables/:id",status="200"} 42 */
          'text/plain': string;
        };
      };
      /** @description payload-too-large: it takes no body; one sent anyway is limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in the service log; another value is replaced by a generated one */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OpenAPI 3.1 */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "openapi": "3.1.0",
           *       "info": {
           *         "title": "Receivables and Collections Service",
           *         "version": "1.0.0"
           *       }
           *     }
           */
          'application/json': Record<string, never>;
        };
      };
      /** @description validation: a body that is not valid JSON */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation';
          };
        };
      };
      /** @description payload-too-large: bodies are limited to 1 MB */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload-too-large';
          };
        };
      };
      /** @description unsupported-media-type: it takes no body; one sent anyway must be application/json */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported-media-type';
          };
        };
      };
    };
  };
  receivableAccountActivatedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable-account.activated",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivableAccount": {
         *           "id": 31,
         *           "cvu": "0000003100098765432109",
         *           "alias": "norte.pereyra.31",
         *           "currencyCode": "ARS",
         *           "status": "ACTIVE",
         *           "disabledReason": null,
         *           "disabledMessage": null,
         *           "owner": {
         *             "type": "CLIENT_AND_ASSOCIATE",
         *             "clientId": 12,
         *             "associateId": 7
         *           },
         *           "stats": {
         *             "pendingAmount": 15000.5
         *           },
         *           "creationDate": "2026-03-02T14:30:00.000Z",
         *           "modificationDate": "2026-03-02T14:30:01.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable-account.activated';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivableAccount: components['schemas']['ReceivableAccount'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableAccountDisabledEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable-account.disabled",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivableAccount": {
         *           "id": 31,
         *           "cvu": "0000003100098765432109",
         *           "alias": "norte.pereyra.31",
         *           "currencyCode": "ARS",
         *           "status": "DISABLED",
         *           "disabledReason": "DISABLED_BY_CUSTOMER",
         *           "disabledMessage": null,
         *           "owner": {
         *             "type": "CLIENT_AND_ASSOCIATE",
         *             "clientId": 12,
         *             "associateId": 7
         *           },
         *           "stats": {
         *             "pendingAmount": 15000.5
         *           },
         *           "creationDate": "2026-03-02T14:30:00.000Z",
         *           "modificationDate": "2026-03-02T14:30:01.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable-account.disabled';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivableAccount: components['schemas']['ReceivableAccount'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableCreatedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.created",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "PENDING",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.created';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivablePaidEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.paid",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "PAID",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.paid';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableReopenedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.reopened",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "PENDING",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.reopened';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableExpiredEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.expired",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "EXPIRED",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.expired';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableDisabledEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.disabled",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "DISABLED",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.disabled';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receivableSettledEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "receivable.settled",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "receivable": {
         *           "id": 501,
         *           "receivableAccountId": 31,
         *           "clientId": 12,
         *           "associateId": 7,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivableType": "INVOICE",
         *           "status": "SETTLED",
         *           "legalNumber": "A-0001-00001234",
         *           "description": "March deliveries",
         *           "externalRoutingCode": "ROUTE-N-12",
         *           "issueDate": "2026-03-01",
         *           "dueDate": "2026-03-31",
         *           "receivableDate": "2026-03-02",
         *           "parentReceivableId": null,
         *           "attachmentUri": null,
         *           "invoiceData": null,
         *           "creationDate": "2026-03-02T15:10:00.000Z",
         *           "modificationDate": "2026-03-02T15:10:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'receivable.settled';
          /** Format: date-time */
          createdAt: string;
          data: {
            receivable: components['schemas']['Receivable'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  movementCreatedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "movement.created",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "movement": {
         *           "id": 9001,
         *           "receivableAccountId": 31,
         *           "movementType": "CREDIT",
         *           "operationType": "DEPOSIT",
         *           "subtype": null,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "counterParty": {
         *             "name": "Almacén Don José",
         *             "taxId": "20123456786"
         *           },
         *           "settlementId": null,
         *           "transferId": null,
         *           "movementDate": "2026-03-05T12:30:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'movement.created';
          /** Format: date-time */
          createdAt: string;
          data: {
            movement: components['schemas']['Movement'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  settlementCompletedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "settlement.completed",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "settlement": {
         *           "id": 88,
         *           "receivableAccountId": 31,
         *           "currentAccountId": 2,
         *           "amount": 15000.5,
         *           "currencyCode": "ARS",
         *           "receivablesCount": 1,
         *           "receivableIds": [
         *             501
         *           ],
         *           "settlementDate": "2026-03-05T13:00:00.000Z",
         *           "creationDate": "2026-03-05T13:00:00.000Z"
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'settlement.completed';
          /** Format: date-time */
          createdAt: string;
          data: {
            settlement: components['schemas']['Settlement'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  transferCompletedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "transfer.completed",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "transfer": {
         *           "id": 301,
         *           "type": "OUTGOING_TRANSFER",
         *           "status": "COMPLETED",
         *           "sourceAccountId": 2,
         *           "amount": 250000.5,
         *           "currencyCode": "ARS",
         *           "destination": {
         *             "cbuCvu": "0110599500000123456784",
         *             "alias": null,
         *             "accountId": null,
         *             "counterParty": {
         *               "name": "Proveedor SA",
         *               "taxId": "30712345671"
         *             }
         *           },
         *           "contactId": null,
         *           "description": "Pago factura A-0001-00001234",
         *           "externalId": "ERP-PAY-0042",
         *           "scheduledDate": null,
         *           "creationDate": "2026-03-05T14:00:00.000Z",
         *           "modificationDate": "2026-03-05T14:00:00.000Z",
         *           "executionDate": null,
         *           "failureReason": null
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'transfer.completed';
          /** Format: date-time */
          createdAt: string;
          data: {
            transfer: components['schemas']['Transfer'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  transferFailedEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "transfer.failed",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "transfer": {
         *           "id": 301,
         *           "type": "OUTGOING_TRANSFER",
         *           "status": "FAILED",
         *           "sourceAccountId": 2,
         *           "amount": 250000.5,
         *           "currencyCode": "ARS",
         *           "destination": {
         *             "cbuCvu": "0110599500000123456784",
         *             "alias": null,
         *             "accountId": null,
         *             "counterParty": {
         *               "name": "Proveedor SA",
         *               "taxId": "30712345671"
         *             }
         *           },
         *           "contactId": null,
         *           "description": "Pago factura A-0001-00001234",
         *           "externalId": "ERP-PAY-0042",
         *           "scheduledDate": null,
         *           "creationDate": "2026-03-05T14:00:00.000Z",
         *           "modificationDate": "2026-03-05T14:00:00.000Z",
         *           "executionDate": null,
         *           "failureReason": null
         *         }
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'transfer.failed';
          /** Format: date-time */
          createdAt: string;
          data: {
            transfer: components['schemas']['Transfer'];
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookTestEvent: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by
         * @example evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY
         */
        'webhook-id': string;
        /**
         * @description Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)
         * @example 1772464200
         */
        'webhook-timestamp': string;
        /**
         * @description Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY",
         *       "type": "webhook.test",
         *       "createdAt": "2026-03-02T15:10:00.000Z",
         *       "data": {
         *         "webhook": {
         *           "id": 12,
         *           "url": "https://erp.example/hooks"
         *         },
         *         "eventType": "receivable.paid"
         *       }
         *     }
         */
        'application/json': {
          id: string;
          /** @constant */
          type: 'webhook.test';
          /** Format: date-time */
          createdAt: string;
          data: {
            webhook: {
              id: number;
              /** Format: uri */
              url: string;
            };
            /** @enum {unknown} */
            eventType:
              | 'receivable-account.activated'
              | 'receivable-account.disabled'
              | 'receivable.created'
              | 'receivable.paid'
              | 'receivable.reopened'
              | 'receivable.expired'
              | 'receivable.disabled'
              | 'receivable.settled'
              | 'movement.created'
              | 'settlement.completed'
              | 'transfer.completed'
              | 'transfer.failed'
              | 'webhook.test';
          };
        };
      };
    };
    responses: {
      /** @description Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Received: the attempt is SUCCESS */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
