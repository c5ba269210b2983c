import type { ClientRequest, ServerResponse } from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'
import diagnostics from 'node:diagnostics_channel'
import db from '@adonisjs/lucid/services/db'

type Listener = (message: unknown) => void

/**
 * What this process waits on that is not the clock. Every server the
 * simulation talks to — the app, the devnet, the upstream simulator, the
 * partners, the mirrored site — runs in this process, so an HTTP exchange is
 * I/O only on the wire: from the moment a request is made (node:http for the
 * test client and the outbound client, fetch for the chain client and the
 * built-in upstreams) until its server starts on it, and from the moment the
 * server is done until the caller has read the answer. While a server works on
 * a request, what it waits on is counted on its own: its queries (PostgreSQL,
 * the one process outside) and the requests it makes. A request held
 * unanswered (a hang fault) thus waits on the clock: the one of the server
 * that drops it, or the caller's time-out (`clock.deadline`).
 *
 * The simulation moves virtual time only when nothing is in flight
 * (`settle`), so how far time moves during a step does not depend on how
 * fast the machine is.
 */
export class PendingIo {
  /** Requests made and not yet answered to their caller. */
  #requests = new Set<object>()
  /** Requests a server in this process started on and has not finished. */
  #serving = new Set<object>()
  #queries = 0
  /** Bumped by every start and end: whether anything moved between two looks. */
  #events = 0
  /** Wakes `settle` when nothing is in flight any more. */
  #wake: (() => void) | null = null
  #stop: (() => void)[] = []

  /** Starts watching: requests through the diagnostics channels, queries through the pg client. */
  start() {
    this.#subscribe('http.client.request.start', (message) => {
      const { request } = message as { request: ClientRequest }
      this.#begin(this.#requests, request)
      request.once('close', () => this.#end(this.#requests, request))
    })
    this.#subscribe('undici:request:create', (message) => {
      this.#begin(this.#requests, (message as { request: object }).request)
    })
    for (const finished of ['undici:request:trailers', 'undici:request:error']) {
      this.#subscribe(finished, (message) => {
        this.#end(this.#requests, (message as { request: object }).request)
      })
    }
    this.#subscribe('http.server.request.start', (message) => {
      const { response } = message as { response: ServerResponse }
      this.#begin(this.#serving, response)
      response.once('close', () => this.#end(this.#serving, response))
    })
    this.#watchQueries()
  }

  stop() {
    for (const stop of this.#stop.splice(0)) stop()
  }

  /**
   * Resolves `quiet` once nothing is in flight and nothing started or ended
   * for two turns of the event loop (work resumed by an answer may start the
   * next request on a later turn: a mined block, a pool handing over a
   * connection) — or `stalled` when something stays in flight and nothing
   * moves for `stallMs` of real time (a query waiting on a lock that work
   * waiting on the clock holds: time must move for either to end).
   */
  async settle(stallMs: number): Promise<'quiet' | 'stalled'> {
    for (;;) {
      const seen = this.#events
      if (this.#busy()) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.#wake = null
            resolve()
          }, stallMs)
          this.#wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        if (this.#busy() && this.#events === seen) return 'stalled'
        continue
      }
      await nextTurn()
      await nextTurn()
      if (!this.#busy() && this.#events === seen) return 'quiet'
    }
  }

  /**
   * What is still tracked, for the end of a run: requests made and not
   * answered, requests a server has not finished, queries not answered.
   * A request counted and never ended would keep `settle` from ever seeing
   * quiet again (its server's side ended, the caller's not). Null when
   * nothing is.
   */
  leftover(): string | null {
    if (this.#requests.size + this.#serving.size + this.#queries === 0) return null
    return `${this.#requests.size} request(s), ${this.#serving.size} being served, ${this.#queries} query(ies)`
  }

  #busy() {
    return this.#queries > 0 || this.#requests.size > this.#serving.size
  }

  #begin(set: Set<object>, item: object) {
    set.add(item)
    this.#moved()
  }

  #end(set: Set<object>, item: object) {
    if (set.delete(item)) this.#moved()
  }

  #moved() {
    this.#events++
    if (this.#wake && !this.#busy()) {
      this.#wake()
      this.#wake = null
    }
  }

  #subscribe(name: string, listener: Listener) {
    diagnostics.subscribe(name, listener)
    this.#stop.push(() => diagnostics.unsubscribe(name, listener))
  }

  /**
   * Every query of the knex PostgreSQL client, transactions included (they
   * share its prototype), counted from sent to answered.
   */
  #watchQueries() {
    const dialect = Object.getPrototypeOf(db.connection().getWriteClient().client) as {
      _query(this: unknown, ...args: unknown[]): Promise<unknown>
    }
    const own = Object.hasOwn(dialect, '_query')
    const query = dialect._query
    const pending = this
    dialect._query = function (...args: unknown[]) {
      pending.#queries++
      pending.#moved()
      return query.apply(this, args).finally(() => {
        pending.#queries--
        pending.#moved()
      })
    }
    this.#stop.push(() => {
      if (own) dialect._query = query
      else delete (dialect as Partial<typeof dialect>)._query
    })
  }
}
