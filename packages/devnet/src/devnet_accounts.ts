/**
 * The pre-funded accounts of the local devnet: Clarinet's well-known devnet
 * keys (its default `settings/Devnet.toml`), so wallets and scripts that already
 * know them work unchanged. Every key below is checked to derive its address
 * in tests/devnet_accounts.spec.ts.
 *
 * These keys are public knowledge. They must never hold anything of value.
 */
export interface DevnetAccount {
  label: string
  address: string
  /** Hex secp256k1 key with the `01` compressed-public-key suffix. */
  privateKey: string
}

/** 100,000,000 STX, in µSTX. */
export const DEFAULT_ACCOUNT_BALANCE = 100_000_000_000_000n

export const DEVNET_ACCOUNTS: readonly DevnetAccount[] = Object.freeze([
  {
    label: 'deployer',
    address: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM',
    privateKey: '753b7cc01a1a2e86221266a154af739463fce51219d97e4f856cd7200c3bd2a601',
  },
  {
    label: 'wallet_1',
    address: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
    privateKey: '7287ba251d44a4d3fd9276c88ce34c5c52a038955511cccaf77e61068649c17801',
  },
  {
    label: 'wallet_2',
    address: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
    privateKey: '530d9f61984c888536871c6573073bdfc0058896dc1adfe9a6a10dfacadc209101',
  },
  {
    label: 'wallet_3',
    address: 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC',
    privateKey: 'd655b2523bcd65e34889725c73064feb17ceb796831c0e111ba1a552b0f31b3901',
  },
  {
    label: 'wallet_4',
    address: 'ST2NEB84ASENDXKYGJPQW86YXQCEFEX2ZQPG87ND',
    privateKey: 'f9d7206a47f14d2870c163ebab4bf3e70d18f5d14ce1031f3902fbbc894fe4c701',
  },
  {
    label: 'wallet_5',
    address: 'ST2REHHS5J3CERCRBEPMGH7921Q6PYKAADT7JP2VB',
    privateKey: '3eccc5dac8056590432db6a35d52b9896876a3d5cbdea53b72400bc9c2099fe801',
  },
  {
    label: 'wallet_6',
    address: 'ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0',
    privateKey: '7036b29cb5e235e5fd9b09ae3e8eec4404e44906814d5d01cbca968a60ed4bfb01',
  },
  {
    label: 'wallet_7',
    address: 'ST3PF13W7Z0RRM42A8VZRVFQ75SV1K26RXEP8YGKJ',
    privateKey: 'b463f0df6c05d2f156393eee73f8016c5372caa0e9e29a901bb7171d90dc4f1401',
  },
  {
    label: 'wallet_8',
    address: 'ST3NBRSFKX28FQ2ZJ1MAKX58HKHSDGNV5N7R21XCP',
    privateKey: '6a1a754ba863d7bab14adbbc3f8ebb090af9e871ace621d3e5ab634e1422885e01',
  },
  {
    label: 'faucet',
    address: 'STNHKEPYEPJ8ET55ZZ0M5A34J0R3N5FM2CMMMAZ6',
    privateKey: 'de433bdfa14ec43aa1098d5be594c8ffb20a31485ff9de2923b2689471c401b801',
  },
])
