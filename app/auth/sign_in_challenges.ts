import { randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import {
  E_CHALLENGE_EXPIRED,
  E_CHALLENGE_FOREIGN,
  E_CHALLENGE_NOT_FOUND,
  E_CHALLENGE_USED,
  E_MESSAGE_MISMATCH,
  E_SIGNATURE_INVALID,
} from '#auth/exceptions'
import { formatSiwsMessage, siwsOrigin, statementOf } from '#auth/siws_message'
import { ChainConfig } from '#chain/define_config'
import { SignInConfig } from '#auth/define_config'
import { publicUrl } from '#core/public_url'
import { isSignedBy } from '#auth/wallet_signature'

/**
 * What a signed challenge proves: a sign-in; (providers) control of a new
 * withdrawal wallet; the owner wallet's approval of that wallet; (buyers) the
 * wallet's consent to spend its credit within the limits its statement names
 * (docs/credit.md#credit-tokens), and a refund of the amount its statement
 * names to the wallet itself (docs/credit.md#refunds).
 */
export type ChallengePurpose =
  'sign_in' | 'link_wallet' | 'approve_wallet' | 'credit_token' | 'credit_refund'

export interface IssuedChallenge {
  nonce: string
  /** The exact text the wallet signs. */
  message: string
  issuedAt: Date
  expiresAt: Date
}

export interface ChallengeAnswer {
  walletAddress: string
  nonce: string
  /** RSV hex of the issued message. */
  signature: string
  /** Optional hint; must be the key recovered from the signature. */
  publicKey?: string
  /** Optional echo of the issued message; must equal it byte for byte. */
  message?: string
}

export interface RedeemOptions {
  purpose: ChallengePurpose
  /** The statement the challenge must have been issued with, when it names what is signed for. */
  statement?: string
  /** Consume the nonce in this transaction: it is usable again if the transaction rolls back. */
  client?: QueryClientContract
}

/**
 * Single-use signed-message challenges (docs/api.md#sign-in-with-stacks-auth).
 * A challenge stores the exact message issued and the origin (domain, URI,
 * chain id) it was issued for; redeeming it checks that origin against the
 * current config, recovers the signer from the signature, and consumes the
 * nonce with one conditional UPDATE, so of two concurrent redemptions exactly
 * one succeeds.
 * Every time check reads the injected Clock. Expired challenges are deleted
 * by the `challenges:sweep` job (expired_challenges.ts).
 */
@inject()
export class SignInChallenges {
  constructor(
    private db: Database,
    private clock: Clock,
    private chain: ChainConfig,
    private config: SignInConfig
  ) {}

  async issue(
    walletAddress: string,
    options: { purpose?: ChallengePurpose; statement?: string } = {}
  ): Promise<IssuedChallenge> {
    const origin = this.#origin()
    const issuedAt = new Date(this.clock.now())
    const expiresAt = new Date(issuedAt.getTime() + this.config.challengeTtlMs)
    const nonce = randomBytes(16).toString('hex')
    const message = formatSiwsMessage({
      ...origin,
      address: walletAddress,
      statement: options.statement ?? this.config.statement,
      nonce,
      issuedAt,
      expiresAt,
    })

    await this.db.table('auth_challenges').insert({
      nonce,
      wallet_address: walletAddress,
      purpose: options.purpose ?? 'sign_in',
      message,
      domain: origin.domain,
      uri: origin.uri,
      chain_id: origin.chainId,
      issued_at: issuedAt,
      expires_at: expiresAt,
    })

    return { nonce, message, issuedAt, expiresAt }
  }

  /**
   * Consumes the challenge when `answer` is its wallet's signature; throws the
   * refusal otherwise. A challenge issued to another wallet, for another
   * purpose or with another statement is not found.
   */
  async redeem(
    answer: ChallengeAnswer,
    { purpose, statement, client = this.db.connection() }: RedeemOptions
  ): Promise<void> {
    const challenge = await client.from('auth_challenges').where('nonce', answer.nonce).first()
    if (
      !challenge ||
      challenge.wallet_address !== answer.walletAddress ||
      challenge.purpose !== purpose ||
      (statement !== undefined && statementOf(challenge.message) !== statement)
    ) {
      throw new E_CHALLENGE_NOT_FOUND()
    }
    if (answer.message !== undefined && answer.message !== challenge.message) {
      throw new E_MESSAGE_MISMATCH()
    }
    const origin = this.#origin()
    if (
      challenge.domain !== origin.domain ||
      challenge.uri !== origin.uri ||
      Number(challenge.chain_id) !== origin.chainId
    ) {
      throw new E_CHALLENGE_FOREIGN()
    }
    const now = new Date(this.clock.now())
    if (challenge.used_at) throw new E_CHALLENGE_USED()
    if (challenge.expires_at <= now) throw new E_CHALLENGE_EXPIRED()

    const signed = isSignedBy({
      message: challenge.message,
      signature: answer.signature,
      address: challenge.wallet_address,
      network: this.chain.network,
      publicKeyHint: answer.publicKey,
    })
    if (!signed) throw new E_SIGNATURE_INVALID()

    const consumed = await client.rawQuery(
      `UPDATE auth_challenges SET used_at = ?
        WHERE nonce = ? AND used_at IS NULL AND expires_at > ?
        RETURNING nonce`,
      [now, answer.nonce, now]
    )
    if (consumed.rows.length === 0) {
      const current = await client.from('auth_challenges').where('nonce', answer.nonce).first()
      throw current?.used_at ? new E_CHALLENGE_USED() : new E_CHALLENGE_EXPIRED()
    }
  }

  #origin() {
    return siwsOrigin(publicUrl(), this.chain.network)
  }
}
