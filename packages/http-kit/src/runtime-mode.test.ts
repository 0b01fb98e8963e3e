import { describe, expect, it } from 'vitest';
import { isProduction } from './runtime-mode';

describe('isProduction', () => {
  it.each(['production', 'Production', 'PRODUCTION', 'prod', 'staging', ' production ', 'live'])(
    'NODE_ENV=%j is production',
    (value) => expect(isProduction({ NODE_ENV: value })).toBe(true),
  );

  it.each([undefined, '', 'development', 'Development', 'dev', 'test'])(
    'NODE_ENV=%j is development',
    (value) => expect(isProduction({ NODE_ENV: value })).toBe(false),
  );
});
