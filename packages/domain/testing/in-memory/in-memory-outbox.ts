import { jsonText, parseExactJson, type DomainEvent, type Outbox } from '../../src';
import { nextId, type Tables, type TablesRef } from './in-memory-tables';

/**
 * Stores events as pending for the dispatcher: what the outbox does, and the settlement step beside its movements.
 * Their data is what PostgreSQL would give back (written as JSON text, read back exactly), frozen: rows are shared
 * between transactions (copyTables).
 */
export function recordEvents(tables: Tables, events: readonly DomainEvent[]): void {
  for (const event of events) {
    const seq = nextId(tables, 'event');
    const data = parseExactJson(jsonText(event.data)!) as Record<string, unknown>;
    tables.outbox.push(Object.freeze({ ...event, data, seq, id: `evt_${seq.toString().padStart(24, '0')}` }));
    tables.pendingEvents.add(seq);
  }
}

export class InMemoryOutbox implements Outbox {
  constructor(private readonly ref: TablesRef) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    recordEvents(this.ref.tables, events);
  }
}
