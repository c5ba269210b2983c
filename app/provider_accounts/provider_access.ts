import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Feed from '#models/feed'
import Provider from '#models/provider'
import {
  E_NOT_OWNER,
  E_PROVIDER_FEED_NOT_FOUND,
  E_PROVIDER_NOT_FOUND,
} from '#provider_accounts/exceptions'
import { isUuid } from '#core/uuid'

/**
 * The provider a management route names, if the signed-in wallet owns it:
 * unknown → 404, someone else's → 403 not_owner. Given `trx`, the row is locked
 * inside that transaction.
 */
export async function ownedProvider(id: string, wallet: string, trx?: TransactionClientContract) {
  if (!isUuid(id)) throw new E_PROVIDER_NOT_FOUND([id])
  const provider = trx
    ? await Provider.query({ client: trx }).where('id', id).forUpdate().first()
    : await Provider.find(id)
  if (!provider) throw new E_PROVIDER_NOT_FOUND([id])
  if (provider.ownerWallet !== wallet) throw new E_NOT_OWNER()
  return provider
}

/** A live (not deleted) feed of the provider by slug, or 404; locked inside `trx` when given. */
export async function liveFeedOf(
  provider: Provider,
  slug: string,
  trx?: TransactionClientContract
) {
  const query = Feed.query(trx ? { client: trx } : undefined)
    .where('provider_id', provider.id)
    .whereNull('deleted_at')
    .where('slug', slug)
  const feed = await (trx ? query.forUpdate() : query).first()
  if (!feed) throw new E_PROVIDER_FEED_NOT_FOUND([slug])
  return feed
}

/** The provider a management route names, if owned by `wallet`, and its live feed `slug`. */
export async function ownedFeed(
  providerId: string,
  wallet: string,
  slug: string,
  trx?: TransactionClientContract
) {
  const provider = await ownedProvider(providerId, wallet, trx)
  return { provider, feed: await liveFeedOf(provider, slug, trx) }
}
