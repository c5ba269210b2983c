import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import type { ChainConfig } from '#config/chain'
import type { PaymentsConfig } from '#config/payments'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import type { FacilitatorRequest } from '#payments/validators/facilitator_validator'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import { type VerificationResult, decodeAndCheckTransaction } from '#payments/verify_payment'
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
  #settlement: LocalSettlement

  constructor(
    stacks: StacksClient,
    private wallet: PlatformWallet,
    watcher: ConfirmationWatcher
  ) {
    const payments = app.config.get<PaymentsConfig>('payments')
    this.#settlement = new LocalSettlement(stacks, stacks, watcher, payments.broadcast)
  }

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
    const preflight = checked.ok
      ? await this.#settlement.preflight(checked.payment)
      : { ok: false as const, code: checked.failure.code }
    return {
      valid: preflight.ok,
      isValid: preflight.ok,
      payer: checked.ok && preflight.ok ? checked.payment.payer : '',
      invalidReason: preflight.ok ? null : preflight.code,
    }
  }

  /**
   * A transaction the node already knows (a retry after a lost answer, or
   * one broadcast elsewhere) is not checked against the payer's account
   * again — its nonce is used by then — but waited for.
   */
  async settle(request: FacilitatorRequest) {
    const network = this.#chain().network.caip2
    const checked = this.#check(request)
    if (!checked.ok) {
      return {
        success: false,
        payer: '',
        transaction: '',
        network,
        errorReason: checked.failure.code,
      }
    }
    const { payment } = checked
    const answer = (success: boolean, errorReason?: string) => ({
      success,
      payer: payment.payer,
      transaction: `0x${payment.txid}`,
      network,
      ...(errorReason ? { errorReason } : {}),
    })

    const preflight = await this.#settlement.preflight(payment)
    if (!preflight.ok) return answer(false, preflight.code)
    const outcome = await this.#settlement.settle(payment, payment.amount, {
      known: preflight.known,
      waitMs: app.config.get<PaymentsConfig>('payments').settlementBudgetMs,
    })
    switch (outcome.state) {
      case 'confirmed':
        return answer(true)
      case 'failed':
        return answer(false, 'transaction_failed')
      case 'rejected':
        return answer(false, outcome.code)
      case 'rate_limited':
        return answer(false, 'rate_limited')
      default:
        return answer(false, 'settlement_pending')
    }
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
