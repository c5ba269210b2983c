import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { normaliseTxid } from '#chain/broadcast_outcome'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import type { ChainConfig } from '#config/chain'
import type { PaymentsConfig } from '#config/payments'
import { broadcastTransaction } from '#payments/broadcast_transaction'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import type { FacilitatorRequest } from '#payments/validators/facilitator_validator'
import {
  type VerificationResult,
  checkPayerAccount,
  decodeAndCheckTransaction,
} from '#payments/verify_payment'
import { X402_VERSION } from '#payments/x402'
import { type PaymentErrorCode, paymentFailure } from '#payments/payment_errors'

/**
 * The x402 facilitator ({facilitator_url}): verifies signed STX transfers
 * without broadcasting, and settles them (broadcast + confirmation wait).
 * Settling never redeems a feed payment: that happens only through the
 * paywall, which owns the payments table.
 */
@inject()
export class Facilitator {
  constructor(
    private stacks: StacksClient,
    private wallet: PlatformWallet,
    private watcher: ConfirmationWatcher
  ) {}

  supported() {
    return {
      x402Version: X402_VERSION,
      kinds: ['stacks:1', 'stacks:2147483648'].map((network) => ({
        x402Version: X402_VERSION,
        scheme: 'exact',
        network,
        asset: 'STX',
      })),
      extensions: [],
      signers: {},
    }
  }

  async verify(request: FacilitatorRequest) {
    const checked = this.#check(request)
    const result = checked.ok ? await checkPayerAccount(checked.payment, this.stacks) : checked
    const valid = result.ok
    return {
      valid,
      isValid: valid,
      payer: result.ok ? result.payment.payer : '',
      invalidReason: result.ok ? null : result.failure.code,
    }
  }

  /**
   * A transaction the node already knows (a retry after a lost answer, or
   * one broadcast elsewhere) is not checked against the payer's account
   * again — its nonce is used by then — but waited for.
   */
  async settle(request: FacilitatorRequest) {
    const network = this.#chain().network.caip2
    const result = this.#check(request)
    if (!result.ok) {
      return {
        success: false,
        payer: '',
        transaction: '',
        network,
        errorReason: result.failure.code,
      }
    }
    const { payment } = result
    const answer = (success: boolean, errorReason?: string) => ({
      success,
      payer: payment.payer,
      transaction: `0x${payment.txid}`,
      network,
      ...(errorReason ? { errorReason } : {}),
    })

    const payments = app.config.get<PaymentsConfig>('payments')
    const known = await this.stacks.getTransaction(payment.txid).catch(() => null)
    if (!known) {
      const account = await checkPayerAccount(payment, this.stacks)
      if (!account.ok) return answer(false, account.failure.code)
      const outcome = await broadcastTransaction(this.stacks, payment.bytes, payments.broadcast)
      if (outcome.kind === 'rejected') return answer(false, outcome.code)
      if (outcome.kind === 'rate_limited') return answer(false, 'rate_limited')
      if (outcome.kind === 'accepted' && normaliseTxid(outcome.txid) !== payment.txid) {
        return answer(false, 'unexpected_settle_error')
      }
    }

    const confirmation = await this.watcher.wait(payment.txid, payments.settlementBudgetMs)
    if (confirmation.state === 'confirmed') return answer(true)
    if (confirmation.state === 'failed') return answer(false, 'transaction_failed')
    return answer(false, 'settlement_pending')
  }

  #chain() {
    return app.config.get<ChainConfig>('chain')
  }

  /** Everything about the request and the signed bytes that needs no I/O. */
  #check(request: FacilitatorRequest): VerificationResult {
    const chain = this.#chain()
    const requirements = request.paymentRequirements
    const refuse = (code: PaymentErrorCode, message: string): VerificationResult => ({
      ok: false,
      failure: paymentFailure(code, message),
    })
    if (request.x402Version !== undefined && request.x402Version !== X402_VERSION) {
      return refuse('invalid_x402_version', 'only x402Version 2 is supported')
    }
    if ((requirements.scheme ?? 'exact') !== 'exact')
      return refuse('unsupported_scheme', 'only "exact"')
    if ((requirements.network ?? chain.network.caip2) !== chain.network.caip2) {
      return refuse('invalid_network', `this facilitator settles on ${chain.network.caip2}`)
    }
    if ((requirements.asset ?? 'STX') !== 'STX')
      return refuse('invalid_payload', 'only the STX asset')
    if (requirements.payTo !== this.wallet.address) {
      return refuse(
        'invalid_recipient',
        'this facilitator only settles payments to the platform wallet'
      )
    }
    return decodeAndCheckTransaction(
      request.paymentPayload.payload.transaction,
      { amount: BigInt(requirements.amount), payTo: requirements.payTo, network: chain.network },
      { maxFee: app.config.get<PaymentsConfig>('payments').maxFeeMicrostx }
    )
  }
}
