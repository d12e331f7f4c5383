/**
 * What each kind of shop sells and how large its orders get. A café's order is a coffee and a
 * cake, not a catering job: sales draw products from the categories their shop's kind sells
 * (weighted), and an order stops growing at what such a shop takes for one receipt.
 */

/** The kinds of shop, the first word of a shop's name ("Kavárna Letná"). */
export const SHOP_KINDS = ['Kavárna', 'Bistro', 'Pekárna', 'Vinárna', 'Obchod', 'Bufet'] as const;

/** A kind of shop. */
export type ShopKind = (typeof SHOP_KINDS)[number];

/** What a kind of shop sells. */
export interface ShopProfile {
  /** First-level category names and their share of the items sold. */
  readonly sells: Readonly<Record<string, number>>;
  /** The largest order total such a shop takes, tax included, in CZK x 1000. */
  readonly maxOrderTotal: number;
}

/** The profile of each kind of shop. Services (catering, rental, delivery) are booked, not sold at a register. */
export const SHOP_PROFILES: Readonly<Record<ShopKind, ShopProfile>> = {
  Kavárna: {
    sells: { Káva: 40, Čaj: 8, Limonády: 6, Džusy: 4, Voda: 5, Snídaně: 6, Dorty: 10, Koláče: 8, Zmrzlina: 4, Sušenky: 3, 'Káva zrnková': 2, Čokoláda: 1 },
    maxOrderTotal: 2_500_000,
  },
  Bistro: {
    sells: { 'Hlavní jídla': 25, Polévky: 12, Saláty: 8, Chlebíčky: 4, Snídaně: 5, Pivo: 12, Víno: 5, Limonády: 8, Voda: 6, Káva: 10, Dorty: 5 },
    maxOrderTotal: 6_000_000,
  },
  Pekárna: {
    sells: { Koláče: 30, Chlebíčky: 15, Snídaně: 8, Dorty: 12, Sušenky: 10, Káva: 15, Čaj: 4, Džusy: 3, Voda: 3 },
    maxOrderTotal: 1_500_000,
  },
  Vinárna: {
    sells: { Víno: 45, Destiláty: 10, Koktejly: 8, Voda: 8, Limonády: 5, Chlebíčky: 8, Saláty: 6, Sušenky: 2 },
    maxOrderTotal: 6_000_000,
  },
  Obchod: {
    sells: { 'Káva zrnková': 40, Hrnky: 15, 'Dárkové balení': 10, Čokoláda: 20, Sušenky: 10, Čaj: 5 },
    maxOrderTotal: 8_000_000,
  },
  Bufet: {
    sells: { Chlebíčky: 20, Polévky: 15, 'Hlavní jídla': 15, Pivo: 15, Limonády: 10, Káva: 10, Koláče: 8, Voda: 7 },
    maxOrderTotal: 2_000_000,
  },
};

/** The kind of a shop from its name, or undefined for a name that starts with no known kind. */
export function shopKindOf(name: unknown): ShopKind | undefined {
  if (typeof name !== 'string') return undefined;
  const first = name.split(' ')[0];
  return (SHOP_KINDS as readonly string[]).includes(first ?? '') ? (first as ShopKind) : undefined;
}

/** Crowns per euro: prices are kept in CZK, a shop that takes euros converts at this rate. */
export const CZK_PER_EUR = 25;

/**
 * An amount in CZK x 1000 in a shop's currency (x 1000): unchanged for CZK, converted and rounded to
 * 10 cents for EUR (never below 10 cents).
 */
export function inShopCurrency(czk: number, currency: string): number {
  if (currency !== 'EUR') return czk;
  return Math.max(100, Math.round(czk / CZK_PER_EUR / 100) * 100);
}

/** An amount in a shop's currency (x 1000) in CZK x 1000, for comparing shops that keep different currencies. */
export function inCzk(amount: number, currency: string): number {
  return currency === 'EUR' ? amount * CZK_PER_EUR : amount;
}

/**
 * How much of a product one order line takes: a quarter kilogram to a kilo and a half of what is
 * sold by weight, mostly one piece of goods, one to three servings of food and drink.
 */
export function saleQuantity(byWeight: boolean, goods: boolean, rng: { next(): number; int(min: number, max: number): number }): number {
  if (byWeight) return 0.25 * rng.int(1, 6);
  const x = rng.next();
  if (goods) return x < 0.9 ? 1 : 2;
  return x < 0.85 ? 1 : x < 0.97 ? 2 : 3;
}
