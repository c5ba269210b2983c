import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Provider from '#models/provider'
import { E_NOT_OWNER, E_PROVIDER_NOT_FOUND } from '#provider_accounts/exceptions'
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
