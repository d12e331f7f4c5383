import { describe, expect, it } from 'vitest';
import { mayHoldPrototypeKey } from '../../src/json/prototype-keys.js';

describe('mayHoldPrototypeKey', () => {
  it('sees a string spelled __proto__ or constructor, key or value', () => {
    for (const text of ['{"__proto__":1}', '["constructor"]', '{"a":{"b":[{"constructor":{}}]}}', '"__proto__"'])
      expect(mayHoldPrototypeKey(text), text).toBe(true);
  });

  it('sees an escape of any letter they are made of, in either case of hex digit', () => {
    for (const text of ['{"\\u005f_proto__":1}', '{"__proto\\u005F_":1}', '{"\\u0063onstructor":1}', '{"constructo\\u0072":1}'])
      expect(mayHoldPrototypeKey(text), text).toBe(true);
  });

  it('lets longer, shorter or unrelated spellings through', () => {
    for (const text of ['{"__proto__x":1}', '{"_proto__":1}', '["constructors"]', '{"a":"b"}', '["\\u00e9"]', '["\\n"]'])
      expect(mayHoldPrototypeKey(text), text).toBe(false);
  });
});
