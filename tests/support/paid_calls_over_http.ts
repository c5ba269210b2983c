import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { publicUrl } from '#core/public_url'
import type { PaymentRequired } from '#payments/x402'
import { transfer } from '#tests/support/devnet'
import { paymentHeader } from '#tests/support/paid_calls'

/**
 * An agent buying a feed as any x402 client does, over HTTP: asks (402),
 * signs the transfer the requirements name with a pre-funded devnet account,
 * pays. Answers the paid response's status and body.
 */
export async function buyFeed(
  path: string,
  options: { buyer?: (typeof DEVNET_ACCOUNTS)[number]; nonce?: bigint; agentName?: string } = {}
) {
  const buyer = options.buyer ?? DEVNET_ACCOUNTS[1]
  const quote = await fetch(publicUrl(path))
  if (quote.status !== 402) throw new Error(`${path} answered ${quote.status} instead of 402`)
  const required = (await quote.json()) as PaymentRequired
  const [accept] = required.accepts
  const tx = await transfer({
    senderKey: buyer.privateKey,
    recipient: accept.payTo,
    amount: BigInt(accept.amount),
    nonce: options.nonce ?? 0n,
  })
  const paid = await fetch(publicUrl(path), {
    headers: {
      'payment-signature': paymentHeader(required, tx.serialize()),
      ...(options.agentName ? { 'x-agent-name': options.agentName } : {}),
    },
  })
  return {
    status: paid.status,
    body: (await paid.json()) as Record<string, unknown>,
    txid: tx.txid(),
  }
}
