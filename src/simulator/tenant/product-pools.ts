/**
 * What each category of the generated catalogue sells: product names, the variants that fit them
 * (sizes for drinks, weights for coffee beans, colours for mugs; never "bez laktózy" on beans),
 * prices in whole crowns, VAT and how goods are delivered. A product's name is a base name, or a
 * base name and one of its group's variants; names run out before suffixes are made up.
 */

/** A variant of a product name and its price relative to the base name. */
export type Variant = readonly [label: string, priceFactor: number];

/** Products of one kind inside a category's pool. */
export interface ProductGroup {
  /** Base names. */
  readonly names: readonly string[];
  /** Variants that fit every base name of the group. */
  readonly variants: readonly Variant[];
  /** True when a base name alone is a product too (not only with a variant). */
  readonly bare: boolean;
  /** Price of a base name, tax included, whole CZK: min and max. */
  readonly price: readonly [number, number];
  /** VAT multiplier (1.21 standard rate, 1.12 reduced rate). */
  readonly tax: number;
  /** Pieces (or kilograms when sold by weight) per delivered case. */
  readonly caseSize: number;
  /** Sold by the kilogram (`unit` 1) rather than by the piece. */
  readonly byWeight?: boolean;
  /** Retail goods (`item_type` 1), as opposed to food and drink served on site. */
  readonly goods?: boolean;
}

const g = (
  names: readonly string[],
  variants: readonly Variant[],
  price: readonly [number, number],
  more: Partial<Pick<ProductGroup, 'bare' | 'tax' | 'caseSize' | 'byWeight' | 'goods'>> = {},
): ProductGroup => ({ names, variants, price, bare: more.bare ?? true, tax: more.tax ?? 1.12, caseSize: more.caseSize ?? 12, ...more });

const TO_GO: Variant = ['s sebou', 1];

/** Product groups by first-level category name (the children of `CATEGORY_TREE`'s roots). */
export const PRODUCT_POOLS: Readonly<Record<string, readonly ProductGroup[]>> = {
  Káva: [
    g(['Espresso', 'Espresso doppio', 'Ristretto', 'Lungo', 'Americano', 'Filtrovaná káva', 'Turecká káva'], [TO_GO, ['bez kofeinu', 1.05]], [45, 75], { caseSize: 50 }),
    g(['Cappuccino', 'Caffè latte', 'Flat white', 'Cortado', 'Macchiato'], [['velké', 1.25], TO_GO, ['bez laktózy', 1.1], ['s ovesným mlékem', 1.15]], [59, 99], { caseSize: 50 }),
    g(['Vídeňská káva', 'Ledová káva', 'Mocha'], [['velká', 1.25], TO_GO, ['bez laktózy', 1.1], ['s ovesným mlékem', 1.15]], [69, 109], { caseSize: 50 }),
  ],
  Čaj: [
    g(['Čaj černý', 'Čaj zelený', 'Čaj mátový', 'Čaj ovocný', 'Rooibos', 'Zázvorový čaj', 'Earl Grey', 'Jasmínový čaj'], [['velký', 1.3], TO_GO], [45, 75], { caseSize: 50 }),
    g(['Chai latte', 'Matcha latte'], [['velké', 1.3], TO_GO, ['s ovesným mlékem', 1.15]], [69, 95], { caseSize: 50 }),
  ],
  Limonády: [g(['Kofola', 'Domácí limonáda', 'Tonic', 'Zázvorová limonáda', 'Malinovka', 'Bezinková limonáda', 'Citronáda', 'Ledový čaj', 'Coca-Cola', 'Fanta', 'Sprite'], [['0,3 l', 0.75], ['0,5 l', 1]], [49, 79], { bare: false, caseSize: 24 })],
  Džusy: [g(['Pomerančový džus', 'Jablečný mošt', 'Mrkvová šťáva', 'Grepový džus', 'Multivitamín', 'Ananasový džus', 'Rajčatová šťáva', 'Jahodové smoothie', 'Mangové smoothie'], [['0,2 l', 0.7], ['0,3 l', 1]], [55, 95], { bare: false, caseSize: 24 })],
  Voda: [g(['Mattoni', 'Voda neperlivá', 'Korunní', 'Magnesia', 'Aquila', 'Rajec', 'Vincentka', 'Voda s citronem'], [['0,33 l', 1], ['0,75 l', 1.6]], [35, 49], { bare: false, caseSize: 24 })],
  Pivo: [g(['Plzeň', 'Kozel 11°', 'Bernard 12°', 'Svijany 450', 'Budvar 33', 'Matuška APA', 'Bernard nealko', 'Birell', 'Staropramen 11°', 'Radegast Ryze hořká'], [['0,3 l', 0.7], ['0,5 l', 1]], [45, 79], { bare: false, tax: 1.21, caseSize: 20 })],
  Víno: [g(['Ryzlink rýnský', 'Frankovka', 'Pálava', 'Svatovavřinecké', 'Prosecco', 'Müller Thurgau', 'Veltlínské zelené', 'Rulandské šedé', 'Cabernet Moravia', 'Sauvignon'], [['0,1 l', 1], ['0,2 l', 1.9], ['láhev 0,75 l', 6.5]], [45, 79], { bare: false, tax: 1.21, caseSize: 6 })],
  Destiláty: [g(['Slivovice', 'Becherovka', 'Fernet Stock', 'Hruškovice', 'Meruňkovice', 'Tullamore Dew', 'Jameson', 'Bombay Sapphire', 'Havana Club', 'Jägermeister', 'Absolut'], [['4 cl', 1], ['2 cl', 0.55]], [59, 129], { bare: false, tax: 1.21, caseSize: 6 })],
  Koktejly: [g(['Aperol spritz', 'Mojito', 'Gin tonic', 'Cuba libre', 'Hugo', 'Negroni', 'Margarita', 'Piña colada', 'Espresso martini', 'Moscow mule'], [['nealko', 0.8]], [129, 199], { tax: 1.21, caseSize: 12 })],
  Snídaně: [g(['Míchaná vejce', 'Granola s jogurtem', 'Vaječná omeleta', 'Vejce Benedikt', 'Palačinky', 'Avokádový toast', 'Ovesná kaše', 'Anglická snídaně', 'Francouzský toast', 'Šunková omeleta', 'Lívance', 'Šakšuka'], [TO_GO], [79, 189], { caseSize: 10 })],
  Polévky: [g(['Česnečka', 'Kulajda', 'Gulášová polévka', 'Dýňová polévka', 'Hovězí vývar', 'Frankfurtská polévka', 'Bramboračka', 'Čočková polévka', 'Rajská polévka', 'Zelňačka'], [['malá porce', 0.7], TO_GO], [59, 99], { caseSize: 10 })],
  'Hlavní jídla': [
    g(['Svíčková', 'Guláš', 'Řízek s bramborovým salátem', 'Smažený sýr', 'Houbové rizoto', 'Kuře na paprice', 'Vepřo knedlo zelo', 'Španělský ptáček', 'Hovězí burger', 'Těstoviny carbonara', 'Lasagne', 'Losos s bramborem', 'Pečená kachna', 'Kuřecí steak', 'Zeleninové kari'], [['poloviční porce', 0.7], TO_GO], [169, 329], { caseSize: 10 }),
  ],
  Saláty: [g(['Caesar salát', 'Řecký salát', 'Salát s kozím sýrem', 'Salát s tuňákem', 'Quinoa salát', 'Salát z červené řepy', 'Těstovinový salát', 'Coleslaw'], [['malý', 0.7], ['s kuřecím masem', 1.25]], [139, 219], { caseSize: 10 })],
  Chlebíčky: [
    g(['Chlebíček šunkový', 'Chlebíček vajíčkový', 'Chlebíček s lososem', 'Chlebíček se sýrem', 'Chlebíček s vlašským salátem', 'Chlebíček s pomazánkou'], [], [35, 59], { caseSize: 20 }),
    g(['Bageta šunková', 'Bageta s kuřetem', 'Bageta se sýrem'], [['malá', 0.7]], [79, 119], { caseSize: 20 }),
    g(['Toust se sýrem', 'Sendvič s tuňákem', 'Zeleninový wrap', 'Kuřecí wrap'], [TO_GO], [69, 109], { caseSize: 20 }),
  ],
  Dorty: [
    g(['Větrník', 'Věneček', 'Rakvička', 'Punčový řez', 'Špička', 'Indiánek', 'Kremrole', 'Tiramisu'], [], [35, 89], { caseSize: 12 }),
    g(['Medovník', 'Sachr', 'Cheesecake', 'Mrkvový dort', 'Jahodový dort', 'Čokoládový dort', 'Dobošův dort'], [['celý', 10]], [69, 119], { caseSize: 12 }),
  ],
  Zmrzlina: [
    g(['Zmrzlina vanilková', 'Zmrzlina čokoládová', 'Zmrzlina pistáciová', 'Zmrzlina jahodová', 'Zmrzlina stracciatella', 'Sorbet citronový', 'Sorbet malinový'], [['2 kopečky', 1.8], ['v kornoutu', 1.1]], [39, 59], { caseSize: 20 }),
    g(['Zmrzlinový pohár', 'Ledová tříšť', 'Zmrzlinový dort'], [], [69, 139], { caseSize: 10 }),
  ],
  Koláče: [g(['Koláč tvarohový', 'Koláč makový', 'Koláč povidlový', 'Trdelník', 'Buchta povidlová', 'Jablečný štrúdl', 'Bábovka', 'Frgál', 'Loupák', 'Croissant', 'Skořicový šnek', 'Borůvkový muffin'], [['2 ks', 1.9]], [25, 69], { caseSize: 20 })],
  Sušenky: [
    g(['Perník', 'Linecké', 'Kokosky', 'Vanilkové rohlíčky', 'Ovesné sušenky', 'Čokoládové cookies', 'Makronky', 'Pracny', 'Medové perníčky'], [['balení 200 g', 3]], [19, 49], { caseSize: 24 }),
    g(['Cukroví na váhu', 'Perníčky na váhu'], [], [390, 590], { byWeight: true, caseSize: 5 }),
  ],
  'Káva zrnková': [
    g(['Brazílie Santos', 'Etiopie Yirgacheffe', 'Kolumbie Supremo', 'Guatemala Antigua', 'Keňa AA', 'Kostarika Tarrazú', 'Honduras Marcala', 'Peru Cajamarca', 'Rwanda Bourbon', 'Indie Monsooned Malabar', 'Sumatra Mandheling', 'Nikaragua Jinotega', 'Salvador Pacamara', 'Mexiko Chiapas', 'Burundi Kayanza', 'Espresso směs Classic', 'Espresso směs Crema', 'Kolumbie bez kofeinu'], [['250 g', 1], ['500 g', 1.9], ['1 kg', 3.6]], [189, 329], { bare: false, goods: true, caseSize: 6 }),
    g(['Káva zrnková na váhu'], [], [690, 990], { byWeight: true, goods: true, caseSize: 5 }),
  ],
  Hrnky: [g(['Hrnek s logem', 'Termohrnek', 'Hrnek na espresso', 'Hrnek na cappuccino', 'Cestovní hrnek', 'Keramický hrnek', 'Porcelánový šálek s podšálkem', 'Skleněný hrnek na čaj'], [['bílý', 1], ['černý', 1], ['modrý', 1.05], ['zelený', 1.05]], [149, 449], { bare: false, tax: 1.21, goods: true, caseSize: 6 })],
  'Dárkové balení': [
    g(['Dárkový koš', 'Adventní kalendář', 'Balíček pro baristu'], [['malý', 0.6], ['velký', 1.5]], [390, 990], { tax: 1.21, goods: true, caseSize: 4 }),
    g(['Dárková krabička', 'Degustační sada kávy', 'Sada čajů'], [['malá', 0.6], ['velká', 1.5]], [390, 990], { tax: 1.21, goods: true, caseSize: 4 }),
  ],
  Čokoláda: [g(['Čokoláda hořká 70 %', 'Čokoláda mléčná', 'Čokoláda s lískovými oříšky', 'Čokoláda bílá', 'Čokoláda s mořskou solí', 'Pralinky', 'Lanýže', 'Kakao'], [['100 g', 1], ['200 g', 1.8]], [69, 149], { bare: false, goods: true, caseSize: 12 })],
  Catering: [g(['Catering firemní snídaně', 'Catering raut', 'Catering coffee break', 'Catering oslava', 'Catering svatba'], [['do 20 osob', 1], ['do 50 osob', 2.2]], [2990, 8990], { bare: false, tax: 1.21, caseSize: 1 })],
  Pronájem: [g(['Pronájem salonku', 'Pronájem terasy', 'Pronájem celé kavárny', 'Pronájem projektoru'], [['na hodinu', 1], ['na den', 6]], [490, 1990], { bare: false, tax: 1.21, caseSize: 1 })],
  Doprava: [g(['Doprava po městě', 'Doprava mimo město', 'Rozvoz jídla', 'Expresní doručení'], [], [59, 299], { tax: 1.21, caseSize: 1 })],
};

/** One product name a pool can give: its group and the variant used (-1 for the base name alone). */
export interface PoolName {
  group: number;
  name: number;
  variant: number;
}

/** Every name a pool can give, bare names and each base name's variants, in a fixed order. */
export function poolNames(pool: readonly ProductGroup[]): PoolName[] {
  const out: PoolName[] = [];
  pool.forEach((group, gi) => {
    group.names.forEach((_, ni) => {
      if (group.bare) out.push({ group: gi, name: ni, variant: -1 });
      group.variants.forEach((_, vi) => out.push({ group: gi, name: ni, variant: vi }));
    });
  });
  return out;
}

/** The display name of a pool name. */
export function nameOf(pool: readonly ProductGroup[], n: PoolName): string {
  const group = pool[n.group] as ProductGroup;
  const base = group.names[n.name] as string;
  return n.variant < 0 ? base : `${base} ${(group.variants[n.variant] as Variant)[0]}`;
}
