import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import { hashMessage } from '@stacks/encryption'
import { privateKeyToAddress, signMessageHashRsv } from '@stacks/transactions'
import { ChainConfig } from '#chain/define_config'
import { AppConfig } from '#core/app_config'
import { useManualClock } from '#tests/support/clock'
import { changeConfig } from '#tests/support/config'

const chainConfig = await app.container.make(ChainConfig)
const appConfig = await app.container.make(AppConfig)

/** The address of a private key on the configured network (ST… on devnet). */
export function walletOf(privateKey: string) {
  return privateKeyToAddress(privateKey, chainConfig.network.stacks)
}

/** What @stacks/connect `stx_signMessage` answers: the RSV hex signature of the message. */
export function signMessage(message: string, privateKey: string) {
  const messageHash = Buffer.from(hashMessage(message)).toString('hex')
  return signMessageHashRsv({ messageHash, privateKey })
}

/**
 * Signs in through the real endpoints (POST /auth/nonce, POST /auth/verify)
 * and returns the bearer session token of the key's wallet.
 */
export async function signIn(
  client: ApiClient,
  privateKey: string
): Promise<{ token: string; walletAddress: string }> {
  const walletAddress = walletOf(privateKey)
  const challenge = await client.post('/auth/nonce').json({ wallet_address: walletAddress })
  if (challenge.status() !== 200) {
    throw new Error(`POST /auth/nonce answered ${challenge.status()}: ${challenge.text()}`)
  }
  const { nonce, message } = challenge.body()
  const verified = await client.post('/auth/verify').json({
    wallet_address: walletAddress,
    nonce,
    signature: signMessage(message, privateKey),
  })
  if (verified.status() !== 200) {
    throw new Error(`POST /auth/verify answered ${verified.status()}: ${verified.text()}`)
  }
  return { token: verified.body().token, walletAddress }
}

/**
 * The per-test set-up of the signed-challenge tests (sign-in, credit tokens): a manual clock,
 * which dates the messages, and PUBLIC_URL, which names their domain, put back after the test
 * changes it. Returns the clock and what restores both.
 */
export async function useManualClockAndPublicUrl() {
  const manual = await useManualClock()
  const restorePublicUrl = changeConfig(appConfig, { publicUrl: appConfig.publicUrl })
  return {
    clock: manual.clock,
    restore: () => {
      manual.restore()
      restorePublicUrl()
    },
  }
}

/** A challenge answer refused as unauthenticated (401) with this error code. */
export function assertRefused(
  response: { assertStatus(status: number): void; assertBodyContains(body: unknown): void },
  code: string
) {
  response.assertStatus(401)
  response.assertBodyContains({ error: { code } })
}
