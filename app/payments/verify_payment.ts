import {
  AddressHashMode,
  AuthType,
  ClarityType,
  isTokenTransferPayload,
  txidFromData,
} from '@stacks/transactions'
import { MINIMUM_FEE_RATE_PER_BYTE, type NetworkPreset } from '#chain/network'
import { decodeCanonicalTransaction, originAddress } from '#chain/canonical_transaction'
import { verifyOriginSignature } from '#chain/origin_signature'
import type { Microstx } from '#ledger/money'
import { type Refusable, refuse } from '#payments/payment_refusal'

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

export type VerificationResult = Refusable<{ payment: VerifiedPayment }>

export interface VerificationOptions {
  /** Highest network fee accepted, in µSTX. */
  maxFee: Microstx
}

/** The account look-up verification needs; StacksClient satisfies it. */
export interface PayerAccounts {
  /** `maxAgeMs`: no cached answer older than this (a refusal is decided on a recent one). */
  getAccount(address: string, options?: { maxAgeMs?: number }): Promise<PayerAccount>
  /**
   * A payment of the payer confirmed on chain: a cache applies it to the
   * answer it holds (the node is asked every time without one).
   */
  confirmed?(payment: Pick<VerifiedPayment, 'payer' | 'nonce' | 'amount' | 'fee'>): void
}

/** 0.1 STX: a transfer costs ~180 µSTX at the minimum rate, so this only stops absurd fees. */
export const DEFAULT_MAX_FEE: Microstx = 100_000n

/** Amounts and nonces are stored in PostgreSQL bigint columns; no real account comes near. */
const MAX_BIGINT_COLUMN = 2n ** 63n

const HEX = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/

/**
 * Checks everything about a signed STX transfer that the bytes alone can
 * tell, in a fixed order (payload, network, authorization, signature, type,
 * recipient, amount, post-conditions, fee, nonce) so the same transaction
 * always fails with the same code. No I/O.
 */
export function decodeAndCheckTransaction(
  hex: string,
  requirement: PaymentRequirement,
  options: VerificationOptions = { maxFee: DEFAULT_MAX_FEE }
): VerificationResult {
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

  const origin = verifyOriginSignature(tx)
  if (!origin.ok) {
    return refuse('invalid_signature', `the origin signature does not verify: ${origin.reason}`)
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

  if (payload.amount >= MAX_BIGINT_COLUMN) {
    return refuse('invalid_amount', `the transfer amount ${payload.amount} µSTX is not below 2^63`)
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

  const minimumFee = BigInt(bytes.length) * MINIMUM_FEE_RATE_PER_BYTE
  if (condition.fee < minimumFee) {
    return refuse(
      'fee_too_low',
      `the fee of ${condition.fee} µSTX is below the node's minimum of ${minimumFee} µSTX for ${bytes.length} bytes`
    )
  }
  if (condition.fee > options.maxFee) {
    return refuse(
      'fee_too_high',
      `the fee of ${condition.fee} µSTX exceeds the ${options.maxFee} µSTX cap`
    )
  }

  if (condition.nonce >= MAX_BIGINT_COLUMN) {
    return refuse('bad_nonce', `nonce ${condition.nonce} is not below 2^63`)
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

/** A payment of the same payer that this service holds in flight (claimed or broadcast). */
export interface PaymentInFlight {
  /** Null for rows from before nonces were recorded: counted as pending. */
  nonce: bigint | null
  amount: Microstx
  fee: Microstx
}

export interface PayerAccount {
  balance: bigint
  /** The next nonce the chain will accept from the payer (its mined transactions' count). */
  nonce: bigint
}

/**
 * What the node would refuse about the payer's account, decided before
 * anything is fetched (docs/architecture.md#the-paid-call, step 4): a used nonce; a nonce that another
 * of the payer's payments in flight already carries; a nonce further ahead of
 * the account's next one than those payments can fill (so an agent paying
 * concurrently with consecutive nonces still passes); a balance that does not
 * cover this payment and the pending ones. Payments in flight whose nonce is
 * below the account's are already mined: their amounts are off the balance.
 */
export function checkPayerAccount(
  payment: VerifiedPayment,
  account: PayerAccount,
  inFlight: PaymentInFlight[]
): VerificationResult {
  const { payer, nonce } = payment
  if (nonce < account.nonce) {
    return refuse(
      'bad_nonce',
      `nonce ${nonce} of ${payer} is already used (next is ${account.nonce})`
    )
  }
  const pending = inFlight.filter((other) => other.nonce === null || other.nonce >= account.nonce)
  if (pending.some((other) => other.nonce === nonce)) {
    return refuse(
      'conflicting_nonce',
      `another payment of ${payer} with nonce ${nonce} is settling`
    )
  }
  const highestUsable = account.nonce + BigInt(pending.length)
  if (nonce > highestUsable) {
    return refuse(
      'bad_nonce',
      `nonce ${nonce} of ${payer} is ahead of its next usable nonce ${highestUsable}: the node would hold it until the gap is filled`
    )
  }
  const needed = pending.reduce(
    (sum, other) => sum + other.amount + other.fee,
    payment.amount + payment.fee
  )
  if (account.balance < needed) {
    return refuse(
      'insufficient_funds',
      `${payer} holds ${account.balance} µSTX, less than the ${needed} µSTX of this payment and its others settling, fees included`
    )
  }
  return { ok: true, payment }
}

function hexByte(value: number): string {
  return value.toString(16).padStart(2, '0')
}
