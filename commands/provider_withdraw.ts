import { randomUUID } from 'node:crypto'
import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { publicUrl } from '#core/public_url'

/** Why the withdrawal stopped: one line for the terminal, exit code 1. */
class WithdrawalStopped extends Error {}

/**
 * A provider's withdrawal in one command, through the same HTTP API as curl:
 * reads the linked withdrawal wallet, posts the withdrawal with an
 * idempotency key (printed, so a retry with --key can never pay twice) and
 * prints the result with its explorer link.
 */
export default class ProviderWithdraw extends BaseCommand {
  static commandName = 'provider:withdraw'
  static description = 'Withdraw a provider’s pending revenue to its linked wallet (HTTP API)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Provider id (GET /me/providers)' })
  declare providerId: string

  @args.string({ description: 'Amount in µSTX, e.g. 1000000 for 1 STX' })
  declare amount: string

  @flags.string({ description: 'The owner’s session token (or TOLLBOOTH_TOKEN)' })
  declare token?: string

  @flags.string({
    description: 'Idempotency key to retry an earlier attempt (default: a new UUID)',
  })
  declare key?: string

  @flags.string({ description: 'Base URL of the service (default: PUBLIC_URL)' })
  declare url?: string

  async run() {
    try {
      await this.#withdraw()
    } catch (error) {
      if (!(error instanceof WithdrawalStopped)) throw error
      this.logger.error(error.message)
      this.exitCode = 1
    }
  }

  async #withdraw() {
    const token = this.token ?? process.env.TOLLBOOTH_TOKEN
    if (!token)
      throw new WithdrawalStopped('give the owner’s session token: --token or TOLLBOOTH_TOKEN')
    if (!/^\d+$/.test(this.amount)) {
      throw new WithdrawalStopped(
        `the amount is whole µSTX, e.g. 1000000 for 1 STX, not "${this.amount}"`
      )
    }
    const origin = this.url ?? publicUrl()
    const base = `${origin}/providers/id/${encodeURIComponent(this.providerId)}`
    const headers = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }

    const provider = await call(`${base}`, { headers })
    const destination = provider.provider?.linked_withdrawal_wallet
    if (!destination)
      throw new WithdrawalStopped('this provider has no linked withdrawal wallet yet')

    const key = this.key ?? randomUUID()
    this.logger.info(`idempotency key ${key} (retry with --key ${key} to never pay twice)`)
    const { withdrawal } = await call(`${base}/withdraw`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount_microstx: Number(this.amount),
        destination_address: destination,
        idempotency_key: key,
      }),
    })
    this.logger.success(
      `withdrawal ${withdrawal.id}: ${withdrawal.status}, ${withdrawal.amount_stx} STX to ${destination}`
    )
    if (withdrawal.explorer_url) this.logger.info(withdrawal.explorer_url)
    if (withdrawal.status === 'failed') {
      throw new WithdrawalStopped(`failed: ${withdrawal.failure_reason}; pending revenue restored`)
    }
  }
}

// The API's own answers (docs/api.md); a refusal is reported from its error shape.
async function call(url: string, init: RequestInit): Promise<any> {
  let response: Response
  try {
    response = await fetch(url, init)
  } catch {
    throw new WithdrawalStopped(
      `could not reach Tollbooth at ${new URL(url).origin} — is \`npm run dev\` running?`
    )
  }
  const body: any = await response.json().catch(() => null)
  if (!response.ok) {
    const error = body?.error
    throw new WithdrawalStopped(
      `${init.method ?? 'GET'} ${url} → HTTP ${response.status}${error ? ` ${error.code}: ${error.message}` : ''}`
    )
  }
  return body
}
