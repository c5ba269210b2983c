import type { ErrorCode } from '#core/error_codes'
import type { Refusable } from '#payments/payment_refusal'
import type { VerifiedPayment } from '#payments/verify_payment'

export type SettlementOutcome =
  | { state: 'confirmed'; blockHeight: number | null }
  /** Mined but failed (abort_*), or dropped. */
  | { state: 'failed'; reason: string }
  /** The node refused the transaction: it was not taken. */
  | { state: 'rejected'; code: ErrorCode }
  /** The node rate-limited every attempt: it was not taken. */
  | { state: 'rate_limited' }
  /** Not confirmed within the wait; it may still confirm (the reconcile job finishes it). */
  | { state: 'pending' }

/**
 * The network half of a paid call, behind one interface so the paywall can
 * settle in-process (the built-in facilitator's code) or through a remote
 * x402 facilitator at FACILITATOR_URL. The static checks of the signed bytes
 * (verify_payment.ts) happen before either, in the paywall. An abstract
 * class, so it is also the container key of the configured implementation.
 */
export abstract class PaymentSettlement {
  /**
   * The settlement's own verdict before anything is fetched, after the
   * paywall's PreBroadcastChecks: a remote facilitator's /verify (the
   * in-process one has nothing to add). No broadcast.
   */
  async verify(_payment: VerifiedPayment, _price: bigint): Promise<Refusable> {
    return { ok: true }
  }

  /** Broadcasts and waits for the block at most `waitMs`. */
  abstract settle(
    payment: VerifiedPayment,
    price: bigint,
    options: { waitMs: number }
  ): Promise<SettlementOutcome>
}
