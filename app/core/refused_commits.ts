import { createRequire } from 'node:module'

/** What knex's query of COMMIT resolves with: PostgreSQL's answer. */
type EndResult = { response?: { command?: string } } | undefined

interface KnexTransaction {
  commit(connection: unknown, value?: unknown): Promise<unknown>
  release(connection: unknown, value?: unknown): Promise<unknown>
  rollback(connection: unknown, error?: unknown): Promise<unknown>
  transactor: { executionPromise: Promise<unknown> }
  refusedEnd?: unknown
}

/**
 * Makes a transaction's end fail when PostgreSQL refuses it. knex resolves
 * `commit()` (and a savepoint's `release()`) even when the COMMIT fails — a
 * deferred constraint or trigger raising at commit, the connection lost, or
 * a transaction a failed statement had aborted, whose COMMIT PostgreSQL
 * answers with ROLLBACK — and only rejects the transaction's internal
 * promise, if at all (knex/knex#6141, open). Lucid, which awaits `commit()`,
 * took a rolled-back transaction for a committed one: a paid call would be
 * answered as paid with nothing recorded.
 * Here `commit()` and `release()` reject with PostgreSQL's error, and the
 * rollback every caller then runs is a no-op (PostgreSQL ended the
 * transaction; knex would refuse the query and hide the first error).
 * Applied once, by the core provider, to the knex the app's Lucid uses.
 */
export function rejectRefusedCommits() {
  const Transaction = createRequire(import.meta.url)('knex/lib/execution/transaction.js')
  const prototype: KnexTransaction = Transaction.prototype
  if (Object.hasOwn(prototype, 'refusedEnd')) return
  prototype.refusedEnd = undefined

  for (const end of ['commit', 'release'] as const) {
    const ended = prototype[end]
    prototype[end] = async function (this: KnexTransaction, connection, value) {
      const result = (await ended.call(this, connection, value)) as EndResult
      try {
        await this.transactor.executionPromise
      } catch (error) {
        this.refusedEnd = error
        throw error
      }
      // A transaction a failed statement aborted: PostgreSQL answers its COMMIT with ROLLBACK.
      if (result?.response?.command === 'ROLLBACK') {
        this.refusedEnd = new Error('COMMIT rolled back: a statement of the transaction had failed')
        throw this.refusedEnd
      }
      return result
    }
  }
  const rollback = prototype.rollback
  prototype.rollback = async function (this: KnexTransaction, connection, error) {
    if (this.refusedEnd !== undefined) return
    return rollback.call(this, connection, error)
  }
}
