import type { PayOnUsOperation } from '../types';
import { chargeCard } from './chargeCard';
import { chargeTokenizedCard } from './chargeTokenizedCard';
import { createDynamicAccount } from './createDynamicAccount';
import { createFixedAccount } from './createFixedAccount';
import { eftPayment } from './eftPayment';
import { getPayment } from './getPayment';
import { listEftBanks } from './listEftBanks';
import { listPayments } from './listPayments';
import { mobileMoneyCollection } from './mobileMoneyCollection';
import { simulatePayment } from './simulatePayment';

/** Operations of the "payin" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [
	chargeCard,
	chargeTokenizedCard,
	createDynamicAccount,
	createFixedAccount,
	eftPayment,
	getPayment,
	listEftBanks,
	listPayments,
	mobileMoneyCollection,
	simulatePayment,
] as PayOnUsOperation[];
