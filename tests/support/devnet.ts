/** The devnet test helpers app tests use, from the devnet package. */
export { FEE, RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '@tollbooth/devnet/testing'
