import { DetailedException } from '#core/exceptions'
import { ERROR_CODES } from '#core/error_codes'

/**
 * GET /health/ready: PostgreSQL did not answer in time, so this instance
 * cannot serve (every request needs it). The chain node's state comes along:
 * it is reported, never the reason for a 503.
 */
export const E_DATABASE_UNAVAILABLE = class DatabaseUnavailable extends DetailedException {
  static status = ERROR_CODES.database_unavailable.status
  static code = 'E_DATABASE_UNAVAILABLE'

  readonly details: { chain_node: 'ok' | 'unreachable' }

  constructor(timeoutMs: number, chainNode: 'ok' | 'unreachable') {
    super(`PostgreSQL did not answer within ${timeoutMs} ms: this instance cannot serve`)
    this.details = { chain_node: chainNode }
  }
}
