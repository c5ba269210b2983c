import { createHash } from 'node:crypto'
import pg from 'pg'
import db from '@adonisjs/lucid/services/db'
import { type Select, type TextRow, rowsOfEach, togetherStatement } from '#core/select_together'
import { type Context, INVARIANTS } from '#tests/simulation/invariants'

/** How the checker's connection shows in `pg_stat_activity`. */
export const APPLICATION_NAME = 'simulation invariants'

/** What the check after one step found: one line per violation, each named by its invariant. */
export interface Verdict {
  step: number | 'end'
  violations: string[]
}

/** The rows of the last read, by SELECT, and the snapshot and question they answer. */
interface LastRead {
  snapshot: string
  asked: string
  rows: Map<string, TextRow[]>
}

/**
 * Checks every invariant after each step on its own connection, while the
 * next step runs: the steps keep this process's one thread busy, the checks
 * PostgreSQL, so the two overlap on two cores (docs/simulation.md#speed).
 *
 * `begin` takes the database's snapshot (a read-only REPEATABLE READ
 * transaction) and returns once it is taken, before the next step can commit
 * anything. What the run observed is captured right after (`capture`: the
 * chain's balances after the database's rows, as before — a withdrawal is on
 * chain before the database calls it confirmed); every invariant's SELECT then
 * runs in that snapshot as one prepared statement, and its rows are judged
 * against what was captured. `outcome` hands over the verdict. One check at a
 * time; a check that cannot be made (the connection lost) is a verdict too.
 *
 * A raw pg client, not the app's pool: the simulation's PendingIo counts the
 * app's queries as work in flight, and a check is not the service's work.
 */
export class InvariantChecker {
  #pending: Promise<Verdict> | null = null
  #last: LastRead | null = null
  #statements = new Map<string, { name: string; text: string }>()
  /** Why the connection broke while it was idle, if it did. */
  #broken: Error | null = null

  private constructor(private client: pg.Client) {
    client.on('error', (error) => {
      this.#broken = error
    })
  }

  static async connect(): Promise<InvariantChecker> {
    const client = new pg.Client(db.connection().getWriteClient().client.connectionSettings)
    await client.connect()
    await client.query(`SET application_name = '${APPLICATION_NAME}'`)
    return new InvariantChecker(client)
  }

  async begin(step: Verdict['step'], capture: () => Context): Promise<void> {
    if (this.#pending) throw new Error('a check is still pending: take its outcome first')
    let snapshot: string
    try {
      if (this.#broken) throw this.#broken
      // One simple-protocol query of two statements: the snapshot is the transaction's from here on.
      const [, taken] = (await this.client.query(
        'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_current_snapshot()::text AS snapshot'
      )) as unknown as pg.QueryResult<{ snapshot: string }>[]
      snapshot = taken.rows[0].snapshot
    } catch (error) {
      this.#pending = Promise.resolve(unchecked(step, error))
      return
    }
    const context = capture()
    const invariants = Object.entries(INVARIANTS)
    const reads = invariants.map(([, invariant]) => invariant.reads(context))
    const keys = reads.map((own) => own.map((select) => JSON.stringify(select)))
    const selects = reads.flat()
    const asked = keys.flat().join('\n')
    const last = this.#last
    const rows =
      // No transaction started or ended since (the same snapshot) and the same question:
      // the database would answer what it answered then.
      last?.asked === asked && last.snapshot === snapshot
        ? this.client.query('COMMIT').then(() => last.rows)
        : this.#read(
            snapshot,
            asked,
            new Map(keys.flat().map((key, index) => [key, selects[index]]))
          )
    // Settled with a verdict whatever happens: nobody awaits it before the next step is over.
    this.#pending = rows
      .then((read) => ({
        step,
        violations: invariants.flatMap(([name, invariant], index) =>
          invariant
            .judge(
              keys[index].map((key) => read.get(key)!),
              context
            )
            .map((violation) => `${name}: ${violation}`)
        ),
      }))
      .catch((error: unknown) => unchecked(step, error))
  }

  /** The verdict of the check begun last, or null when none is pending. */
  async outcome(): Promise<Verdict | null> {
    const pending = this.#pending
    this.#pending = null
    return pending
  }

  async close() {
    await this.#pending
    await this.client.end()
  }

  /** The statement with pg's `$n` placeholders, and the name it is prepared under. */
  #prepared(statement: Select) {
    let prepared = this.#statements.get(statement.sql)
    if (!prepared) {
      const text = db.rawQuery(statement.sql, statement.bindings).toSQL().toNative().sql
      prepared = { name: `invariants_${createHash('sha1').update(text).digest('hex')}`, text }
      this.#statements.set(statement.sql, prepared)
    }
    return prepared
  }

  /** Every distinct SELECT, as one statement prepared once on this connection. */
  async #read(snapshot: string, asked: string, selects: Map<string, Select>) {
    const statement = togetherStatement([...selects.values()])
    const [result] = await Promise.all([
      this.client.query({ ...this.#prepared(statement), values: statement.bindings }),
      this.client.query('COMMIT'),
    ])
    const each = rowsOfEach([...selects.values()], result.rows)
    const rows = new Map([...selects.keys()].map((key, index) => [key, each[index]]))
    this.#last = { snapshot, asked, rows }
    return rows
  }
}

function unchecked(step: Verdict['step'], error: unknown): Verdict {
  return { step, violations: [`the invariants could not be checked: ${(error as Error).stack}`] }
}
