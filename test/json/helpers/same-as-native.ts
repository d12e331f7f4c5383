/**
 * Differences between a `parseJson` result and the native `JSON.parse` result of the same text,
 * allowing only the documented one: an integer outside the safe range is an exact decimal
 * string, and the keys `__proto__` and `constructor` are dropped. `reference`, when given, is an independent parse (json-bigint with `storeAsString`)
 * that supplies the exact digits of long numbers. Returns a list of readable problems.
 */
export function differencesFromNative(mine: unknown, native: unknown, reference?: unknown, path = '$', out: string[] = []): string[] {
  if (typeof native === 'number') {
    if (typeof mine === 'string') {
      if (!/^-?[1-9][0-9]*$/.test(mine)) out.push(`${path}: string ${mine} is not an integer`);
      else if (Number.isSafeInteger(Number(mine))) out.push(`${path}: ${mine} is safe, yet came back as a string`);
      else if (Number(mine) !== native) out.push(`${path}: ${mine} does not round to the native ${native}`);
      if (reference !== undefined && String(reference) !== mine) out.push(`${path}: ${mine}, the reference says ${String(reference)}`);
    } else if (!Object.is(mine, native)) {
      out.push(`${path}: ${String(mine)} where the native parse gives ${native}`);
    } else if (typeof reference === 'string' && /^-?[0-9]+$/.test(reference) && !Number.isSafeInteger(Number(reference))) {
      out.push(`${path}: the unsafe integer ${reference} came back as the number ${native}`);
    }
    return out;
  }
  if (Array.isArray(native)) {
    if (!Array.isArray(mine) || mine.length !== native.length) return push(out, `${path}: not an array of ${native.length}`);
    native.forEach((item, i) => differencesFromNative(mine[i], item, (reference as unknown[] | undefined)?.[i], `${path}[${i}]`, out));
    return out;
  }
  if (native !== null && typeof native === 'object') {
    if (mine === null || typeof mine !== 'object' || Array.isArray(mine)) return push(out, `${path}: not an object`);
    // parseJson drops these two keys by design; everything else must be there, in order.
    const keys = Object.keys(native).filter((key) => key !== '__proto__' && key !== 'constructor');
    if (JSON.stringify(Object.keys(mine)) !== JSON.stringify(keys)) return push(out, `${path}: keys ${Object.keys(mine).join()} vs ${keys.join()}`);
    for (const key of keys) {
      const ref = reference as Record<string, unknown> | undefined;
      differencesFromNative((mine as Record<string, unknown>)[key], (native as Record<string, unknown>)[key], ref?.[key], `${path}.${key}`, out);
    }
    return out;
  }
  if (!Object.is(mine, native)) out.push(`${path}: ${JSON.stringify(mine)} vs ${JSON.stringify(native)}`);
  return out;
}

function push(out: string[], problem: string): string[] {
  out.push(problem);
  return out;
}
