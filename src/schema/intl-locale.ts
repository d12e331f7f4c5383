/**
 * The locale a platform reports (`navigator.language`, a POSIX `LANG`) as a tag `Intl` takes.
 * Platforms report tags `Intl` refuses: WebKitGTK started under `LANG=C.UTF-8` says
 * `navigator.language === "C"`, and `new Intl.NumberFormat("C")` throws a RangeError, so an app
 * that formats with the reported tag as it is shows nothing at all on such a device.
 */

/** A POSIX locale name: language, region, then an optional codeset and modifier (`cs_CZ.UTF-8`, `de_AT@euro`). */
const POSIX_NAME = /^([a-z]{2,3})(?:_([a-z]{2}|\d{3}))?(?:\.[\w-]*)?(?:@\w*)?$/i;
/** The POSIX locale ("C", "C.UTF-8", "POSIX"): American English, as ICU reads it. */
const POSIX_LOCALE = /^(?:C|POSIX)(?:\.[\w-]*)?$/i;

const resolved = new Map<string, string | undefined>();

/**
 * A locale for `Intl` from the one a platform reports:
 * - a BCP 47 tag `Intl` takes is kept, in canonical form (`cs-cz` → `cs-CZ`);
 * - a POSIX locale name becomes the language and region it names (`cs_CZ.UTF-8` → `cs-CZ`);
 * - the POSIX locale itself (`C`, `C.UTF-8`, `POSIX`) becomes `en-US` (ICU reads it as `en-US-POSIX`,
 *   whose numbers have no grouping: a format for machines, not for people);
 * - anything else is `undefined`: the runtime's default locale, as if none had been given.
 *
 * `formatMoney` reads its locale through this, so `formatMoney(v, 'CZK', navigator.language)`
 * formats on every device; do the same for an app's own `Intl` formats.
 */
export function toIntlLocale(tag: string | undefined): string | undefined {
  if (tag === undefined || tag === '') return undefined;
  if (resolved.has(tag)) return resolved.get(tag);
  const locale = readLocale(tag);
  resolved.set(tag, locale);
  return locale;
}

function readLocale(tag: string): string | undefined {
  // First: "POSIX" is also a well-formed (meaningless) language subtag.
  if (POSIX_LOCALE.test(tag)) return 'en-US';
  const canonical = canonicalTag(tag);
  if (canonical !== undefined) return canonical;
  const posix = POSIX_NAME.exec(tag);
  return posix ? canonicalTag(posix[2] ? `${posix[1]}-${posix[2]}` : (posix[1] as string)) : undefined;
}

/** The canonical form of a tag `Intl` takes, or undefined when it refuses it. */
function canonicalTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}
