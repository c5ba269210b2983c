import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import type { ErrorCode } from '#core/error_codes'
import { PaymentsConfig } from '#payments/define_config'
import { settlementResponse } from '#payments/paid_call_response'
import { PaymentLifecycle } from '#payments/payment_lifecycle'
import { PreBroadcastChecks } from '#payments/pre_broadcast_checks'
import { PaymentRecords } from '#payments/payment_records'
import { isPaywallProof } from '#payments/paywall_proof'
import type { FacilitatorRequest } from '#payments/validators/facilitator_validator'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import type { SettlementOutcome } from '#payments/settlement/payment_settlement'
import { type Refusable, refuse } from '#payments/payment_refusal'
import {
  type VerificationResult,
  type VerifiedPayment,
  decodeAndCheckTransaction,
} from '#payments/verify_payment'
import { X402_VERSION } from '#payments/x402'

/**
 * The x402 facilitator ({facilitator_url}): verifies signed STX transfers
 * without broadcasting, and settles them (broadcast + confirmation wait).
 * A settlement is recorded in the paywall's redemption table (`payments`,
 * purpose `facilitator`), so a transfer settled here is never also redeemed
 * at a feed, and the reverse; settling never credits anyone. The one
 * exception is this service's own paywall settling through FACILITATOR_URL
 * (another instance on the same database), which proves it with the
 * paywall-proof header: a payment it claimed (a feed call, a top-up) is
 * settled for it, recording nothing.
 */
@inject()
export class Facilitator {
  constructor(
    private wallet: PlatformWallet,
    private checks: PreBroadcastChecks,
    private settlement: LocalSettlement,
    private lifecycle: PaymentLifecycle,
    private records: PaymentRecords,
    private chain: ChainConfig,
    private config: PaymentsConfig
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

  async verify(request: FacilitatorRequest, paywallProof?: string) {
    const checked = this.#check(request)
    const verdict = checked.ok
      ? await this.#verifyUnredeemed(checked.payment, paywallProof)
      : checked
    return {
      valid: verdict.ok,
      isValid: verdict.ok,
      payer: checked.ok && verdict.ok ? checked.payment.payer : '',
      invalidReason: verdict.ok ? null : verdict.refusal.code,
    }
  }

  async settle(request: FacilitatorRequest, paywallProof?: string) {
    const network = this.chain.network.caip2
    const checked = this.#check(request)
    if (!checked.ok) {
      return { payer: '', ...settlementResponse(network, undefined, checked.refusal.code) }
    }
    const { payment } = checked
    const answer = (errorReason?: ErrorCode) => settlementResponse(network, payment, errorReason)

    const claim = await this.lifecycle.claim({
      purpose: 'facilitator',
      payment,
      feedId: null,
      resource: 'POST /facilitator/settle',
      network,
    })
    switch (claim.outcome) {
      case 'claimed':
        break
      case 'in_flight': {
        const { purpose, status } = claim.payment
        if (purpose === 'facilitator') return answer('settlement_pending')
        if (status === 'broadcast' && this.#fromOurPaywall(payment, paywallProof)) {
          return answer(failureOf(await this.#broadcastAndWait(payment)))
        }
        return answer('payment_already_used')
      }
      case 'redeemed':
        return answer('payment_already_used')
      case 'failed':
        return answer('payment_failed')
      case 'too_many_in_flight':
        return answer('too_many_payments_in_flight')
      default: {
        const unknownOutcome: never = claim
        throw new Error(`unknown claim outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }

    const refusal = await this.#handOver(payment)
    if (refusal) return answer(refusal)

    const outcome = await this.#broadcastAndWait(payment)
    await this.lifecycle.applySettlement(payment.txid, outcome)
    return answer(failureOf(outcome))
  }

  /**
   * The pre-broadcast checks of a fresh claim, then the claim handed over for
   * broadcast; on a refusal or an error the claim is released (nothing was
   * broadcast).
   */
  async #handOver(payment: VerifiedPayment): Promise<ErrorCode | undefined> {
    let releaseReason: string | undefined = 'request_failed'
    try {
      const checked = await this.checks.check(payment)
      if (!checked.ok) {
        releaseReason = checked.refusal.code
        return checked.refusal.code
      }
      releaseReason = undefined
      const handedOver = await this.lifecycle.handOver(payment.txid, null)
      return handedOver ? undefined : 'transaction_already_broadcast'
    } finally {
      if (releaseReason) await this.lifecycle.release(payment.txid, releaseReason)
    }
  }

  /** Checks a verified transfer against the redemption table and the chain; records nothing. */
  async #verifyUnredeemed(
    payment: VerifiedPayment,
    paywallProof: string | undefined
  ): Promise<Refusable> {
    const existing = await this.records.find(payment.txid)
    if (existing && existing.status !== 'released') {
      // Our own paywall checking a claim (a feed call or a top-up) it is about to hand over.
      const ours =
        existing.status === 'claimed' &&
        existing.purpose !== 'facilitator' &&
        this.#fromOurPaywall(payment, paywallProof)
      if (!ours) {
        return existing.status === 'failed'
          ? refuse('payment_failed', 'the transfer failed on chain')
          : refuse('payment_already_used', 'the transfer was already redeemed')
      }
    }
    return this.checks.check(payment)
  }

  #fromOurPaywall(payment: VerifiedPayment, proof: string | undefined) {
    return isPaywallProof(this.config.paywallProofKey, payment.txid, proof)
  }

  #broadcastAndWait(payment: VerifiedPayment) {
    return this.settlement.settle(payment, payment.amount, {
      waitMs: this.config.settlementBudgetMs,
    })
  }

  /** Everything about the request and the signed bytes that needs no I/O. */
  #check(request: FacilitatorRequest): VerificationResult {
    const chain = this.chain
    const requirements = request.paymentRequirements
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
      { maxFee: this.config.maxFeeMicrostx }
    )
  }
}

/** The /settle answer's errorReason for a settlement outcome (none: it succeeded). */
function failureOf(outcome: SettlementOutcome): ErrorCode | undefined {
  switch (outcome.state) {
    case 'confirmed':
      return undefined
    case 'failed':
      return 'transaction_failed'
    case 'rejected':
      return outcome.code
    case 'rate_limited':
      return 'rate_limited'
    case 'pending':
      return 'settlement_pending'
    default: {
      const unknownOutcome: never = outcome
      throw new Error(`unknown settlement outcome ${JSON.stringify(unknownOutcome)}`)
    }
  }
}
