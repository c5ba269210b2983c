import {
  AddressHashMode,
  AuthType,
  ClarityType,
  isTokenTransferPayload,
  txidFromData,
} from '@stacks/transactions'
import type { NetworkPreset } from '#chain/network'
import {
  decodeCanonicalTransaction,
  errorMessage,
  originAddress,
} from '#chain/canonical_transaction'
import type { Microstx } from '#ledger/money'
import { paymentFailure, type VerificationFailure } from '#payments/payment_errors'

export type { VerificationFailure } from '#payments/payment_errors'

export interface PaymentRequirement {
  amount: Microstx
  payTo: string
  network: NetworkPreset
}

export type VerifiedPayment = {
  /** Lowercase hex of the transaction's hash, no 0x. */
  txid: string
  payer: string
  amount: Microstx
  fee: Microstx
  nonce: bigint
  recipient: string
  memo: string
  bytes: Uint8Array
}

export type VerificationResult =
  { ok: true; payment: VerifiedPayment } | { ok: false; failure: VerificationFailure }

export interface VerificationOptions {
  /** Highest network fee accepted, in µSTX. */
  maxFee: Microstx
}

/** The account look-up verification needs; StacksClient satisfies it. */
export interface PayerAccounts {
  getAccount(address: string): Promise<{ balance: bigint; nonce: bigint }>
}

/** 0.1 STX: a transfer costs ~180 µSTX at the minimum rate, so this only stops absurd fees. */
export const DEFAULT_MAX_FEE: Microstx = 100_000n

const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/

/**
 * Checks everything about a signed STX transfer that the bytes alone can
 * tell, in a fixed order (payload, network, authorization, signature, type,
 * recipient, amount, post-conditions, fee) so the same transaction always
 * fails with the same code. No I/O.
 */
export function decodeAndCheckTransaction(
  hex: string,
  requirement: PaymentRequirement,
  options: VerificationOptions = { maxFee: DEFAULT_MAX_FEE }
): VerificationResult {
  const refuse = (...args: Parameters<typeof paymentFailure>): VerificationResult => ({
    ok: false,
    failure: paymentFailure(...args),
  })

  const match = typeof hex === 'string' ? HEX.exec(hex.trim()) : null
  if (!match) return refuse('invalid_payload', 'the transaction is not a hex string')
  const bytes = new Uint8Array(Buffer.from(match[1], 'hex'))
  const decoded = decodeCanonicalTransaction(bytes)
  if (!decoded.ok) return refuse('invalid_payload', decoded.reason)
  const { tx } = decoded

  const { network } = requirement
  if (tx.transactionVersion !== network.transactionVersion) {
    return refuse(
      'invalid_network',
      `transaction version 0x${hexByte(tx.transactionVersion)} is not ${network.name}'s 0x${hexByte(network.transactionVersion)}`
    )
  }
  if (tx.chainId !== network.chainId) {
    return refuse(
      'invalid_network',
      `chain id ${tx.chainId} is not ${network.name}'s ${network.chainId}`
    )
  }

  if (tx.auth.authType !== AuthType.Standard) {
    return refuse('unsupported_authorization', 'sponsored transactions are not accepted')
  }
  const condition = tx.auth.spendingCondition
  // P2WPKH is single-sig too, but its address carries the multi-sig version
  // byte; only plain P2PKH origins are accepted, as every wallet produces them.
  if (condition.hashMode !== AddressHashMode.P2PKH) {
    return refuse(
      'unsupported_authorization',
      'only standard single-signature (P2PKH) transactions are accepted'
    )
  }

  try {
    tx.verifyOrigin()
  } catch (error) {
    return refuse(
      'invalid_signature',
      `the origin signature does not verify: ${errorMessage(error)}`
    )
  }

  const payload = tx.payload
  if (!isTokenTransferPayload(payload)) {
    return refuse('invalid_transaction_type', 'the transaction is not an STX token transfer')
  }

  if (payload.recipient.type !== ClarityType.PrincipalStandard) {
    return refuse('invalid_recipient', 'the recipient is a contract principal')
  }
  const recipient = payload.recipient.value
  if (recipient !== requirement.payTo) {
    return refuse('invalid_recipient', `the transfer pays ${recipient}, not ${requirement.payTo}`)
  }

  if (payload.amount < requirement.amount) {
    return refuse(
      'insufficient_amount',
      `the transfer pays ${payload.amount} µSTX, less than the ${requirement.amount} µSTX required`
    )
  }

  // Whatever the post-condition mode, an STX transfer with no post-conditions
  // moves exactly the amount it names; any post-condition is refused outright.
  if (tx.postConditions.values.length > 0) {
    return refuse('post_conditions_not_allowed', 'the transaction carries post-conditions')
  }

  if (condition.fee > options.maxFee) {
    return refuse(
      'fee_too_high',
      `the fee of ${condition.fee} µSTX exceeds the ${options.maxFee} µSTX cap`
    )
  }

  const payer = originAddress(tx, network.stacks)
  return {
    ok: true,
    payment: {
      txid: txidFromData(bytes).toLowerCase(),
      payer,
      amount: payload.amount,
      fee: condition.fee,
      nonce: condition.nonce,
      recipient,
      memo: payload.memo.content,
      bytes,
    },
  }
}

/**
 * decodeAndCheckTransaction, then checkPayerAccount. Node errors from `chain`
 * propagate (the caller decides between 502 and 503); caching look-ups per
 * payer is the caller's `chain` concern.
 */
export async function verifyPayment(
  hex: string,
  requirement: PaymentRequirement,
  chain: PayerAccounts,
  options: VerificationOptions = { maxFee: DEFAULT_MAX_FEE }
): Promise<VerificationResult> {
  const checked = decodeAndCheckTransaction(hex, requirement, options)
  if (!checked.ok) return checked
  return checkPayerAccount(checked.payment, chain)
}

/**
 * One account look-up for the payer of a transaction not yet on chain: the
 * balance must cover amount + fee and the nonce must not be used yet.
 */
export async function checkPayerAccount(
  payment: VerifiedPayment,
  chain: PayerAccounts
): Promise<VerificationResult> {
  const account = await chain.getAccount(payment.payer)
  const needed = payment.amount + payment.fee
  if (account.balance < needed) {
    return {
      ok: false,
      failure: paymentFailure(
        'insufficient_funds',
        `${payment.payer} holds ${account.balance} µSTX, less than the ${needed} µSTX amount + fee`
      ),
    }
  }
  if (payment.nonce < account.nonce) {
    return {
      ok: false,
      failure: paymentFailure(
        'bad_nonce',
        `nonce ${payment.nonce} of ${payment.payer} is already used (next is ${account.nonce})`
      ),
    }
  }
  return { ok: true, payment }
}

function hexByte(value: number): string {
  return value.toString(16).padStart(2, '0')
}
