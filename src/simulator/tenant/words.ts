/**
 * Word pools for a believable Czech point-of-sale tenant: people with diacritics ("Jiří Dvořák"),
 * places and the category tree, plus helpers for e-mails, phone numbers and EAN-13 codes.
 */
import type { Rng } from '../rng.js';

/** Male first names. */
export const MALE_FIRST = ['Jiří', 'Jan', 'Petr', 'Josef', 'Pavel', 'Martin', 'Tomáš', 'Jaroslav', 'Miroslav', 'Zdeněk', 'Václav', 'Michal', 'František', 'Lukáš', 'Ondřej', 'Matěj', 'Radek', 'Vojtěch', 'Štěpán', 'Řehoř'] as const;
/** Female first names. */
export const FEMALE_FIRST = ['Jana', 'Marie', 'Eva', 'Hana', 'Anna', 'Lenka', 'Kateřina', 'Lucie', 'Věra', 'Alena', 'Petra', 'Veronika', 'Jaroslava', 'Tereza', 'Šárka', 'Žofie', 'Barbora', 'Zuzana', 'Markéta', 'Dagmar'] as const;
/** Male surnames (female forms are derived). */
export const SURNAMES = ['Novák', 'Svoboda', 'Novotný', 'Dvořák', 'Černý', 'Procházka', 'Kučera', 'Veselý', 'Horák', 'Němec', 'Pokorný', 'Marek', 'Pospíšil', 'Hájek', 'Král', 'Jelínek', 'Růžička', 'Beneš', 'Fiala', 'Sedláček', 'Doležal', 'Zeman', 'Kolář', 'Navrátil', 'Čermák', 'Šťastný', 'Kříž', 'Vaněk', 'Žák', 'Bartoš'] as const;
/** A few foreign names so that not every name is Czech. */
export const FOREIGN_NAMES = [['Zoë', 'Müller'], ['José', 'Peña'], ['Łukasz', 'Wiśniewski'], ['Øyvind', 'Ødegård'], ['Chloé', 'Lefèvre'], ['Dmitrij', 'Ivanov'], ['Nguyễn', 'Thị Lan'], ['Søren', 'Kierkegaard']] as const;
/** Towns and districts. */
export const PLACES = ['Praha 7 – Letná', 'Praha 8 – Karlín', 'Brno – Veveří', 'Ostrava – Poruba', 'Plzeň – Slovany', 'Olomouc', 'České Budějovice', 'Hradec Králové', 'Liberec', 'Ústí nad Labem', 'Pardubice', 'Zlín'] as const;
/** Root categories and their typical children. */
export const CATEGORY_TREE: readonly (readonly [string, readonly string[]])[] = [
  ['Nápoje', ['Káva', 'Čaj', 'Limonády', 'Džusy', 'Voda']],
  ['Alkohol', ['Pivo', 'Víno', 'Destiláty', 'Koktejly']],
  ['Jídlo', ['Snídaně', 'Polévky', 'Hlavní jídla', 'Saláty', 'Chlebíčky']],
  ['Dezerty', ['Dorty', 'Zmrzlina', 'Koláče', 'Sušenky']],
  ['Zboží', ['Káva zrnková', 'Hrnky', 'Dárkové balení', 'Čokoláda']],
  ['Služby', ['Catering', 'Pronájem', 'Doprava']],
];
/** A person's name: Czech most of the time, sometimes foreign; female surnames take -ová. */
export function personName(rng: Rng): { first: string; last: string } {
  if (rng.chance(0.06)) {
    const [first, last] = rng.pick(FOREIGN_NAMES);
    return { first, last };
  }
  const female = rng.chance(0.5);
  const first = female ? rng.pick(FEMALE_FIRST) : rng.pick(MALE_FIRST);
  const surname = rng.pick(SURNAMES);
  return { first, last: female ? feminine(surname) : surname };
}

function feminine(surname: string): string {
  if (surname.endsWith('ý')) return `${surname.slice(0, -1)}á`;
  if (surname.endsWith('a')) return `${surname.slice(0, -1)}ová`;
  if (surname.endsWith('ek')) return `${surname.slice(0, -2)}ková`;
  return `${surname}ová`;
}

/** Lower-case ASCII form of a name for e-mail addresses ("Jiří Dvořák" -> "jiri", "dvorak"). */
export function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/ł/gi, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
}

/** An e-mail address for a person. */
export function email(first: string, last: string, rng: Rng): string {
  const domain = rng.pick(['seznam.cz', 'email.cz', 'gmail.com', 'centrum.cz', 'firma.cz']);
  return `${ascii(first)}.${ascii(last)}${rng.chance(0.3) ? rng.int(1, 99) : ''}@${domain}`;
}

/** A Czech mobile number in international form. */
export function phone(rng: Rng): string {
  return `+420 ${rng.int(601, 799)} ${String(rng.int(0, 999)).padStart(3, '0')} ${String(rng.int(0, 999)).padStart(3, '0')}`;
}

/** A valid EAN-13 (Czech prefix 859) with its check digit. */
export function ean13(rng: Rng): string {
  let digits = '859';
  for (let i = 0; i < 9; i++) digits += String(rng.int(0, 9));
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return digits + String((10 - (sum % 10)) % 10);
}
