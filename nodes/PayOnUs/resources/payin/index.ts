/**
 * The operations of the Payin resource: one line each, alphabetical by file.
 * (The node lists them alphabetically by name in its dropdown, whatever this
 * order; the resource itself is declared in ../index.ts.)
 */
export { chargeCard } from './chargeCard';
export { chargeTokenizedCard } from './chargeTokenizedCard';
export { createDynamicAccount } from './createDynamicAccount';
export { createFixedAccount } from './createFixedAccount';
export { eftPayment } from './eftPayment';
export { getPayment } from './getPayment';
export { listEftBanks } from './listEftBanks';
export { listMobileMoneyNetworks } from './listMobileMoneyNetworks';
export { listPayments } from './listPayments';
export { mobileMoneyCollection } from './mobileMoneyCollection';
export { simulatePayment } from './simulatePayment';
