/** `id_payment` codes named by the spec: cash, credit card, a payment-terminal provider. */
export const PAYMENT_CODES = [221, 222, 238] as const;
