/**
 * The statement lines of the link-wallet challenges. Each names the provider
 * and the address it consents to, and redeeming a challenge checks it, so a
 * signature given for one provider or address cannot link another.
 */

/** Signed by the wallet being linked. */
export function linkWalletStatement(handle: string, address: string) {
  return `Link ${address} as the withdrawal wallet of Tollbooth provider ${handle}.`
}

/** Signed by the owner wallet when an already linked wallet is replaced. */
export function changeWalletStatement(handle: string, address: string) {
  return `Change the withdrawal wallet of Tollbooth provider ${handle} to ${address}.`
}
