import { describe, expect, it } from 'vitest';
import { canonicalQuery, prehash, sign } from '../../src/http/signing.js';

describe('signing', () => {
  it('matches the live service known answers (docs/platform.md, "Requests and signing")', () => {
    expect(
      sign('test-secret', {
        timestamp: '16273667805456',
        method: 'GET',
        requestPath: '/api/mix/v2/market/depth',
        queryString: 'limit=20&symbol=BTCUSDT',
      }),
    ).toBe('To/xSqZkg77MdhtM0EAKhSNw+cZhrkIFETqbTFYIYg0=');
    expect(
      sign('test-secret', {
        timestamp: '1700000000000',
        method: 'GET',
        requestPath: '/api/v2/spot/wallet/withdrawal-records',
        queryString: canonicalQuery({ startTime: '1700000000000', limit: '100', endTime: '1700604800000' }),
      }),
    ).toBe('ZH0ieof6yA/bu8glh7t+1wQVDkTij0JTEK+JmeBAo/g=');
  });

  it('writes no ? without a query, upper-cases the method and appends the body', () => {
    expect(prehash({ timestamp: '1', method: 'get', requestPath: '/api/v2/public/time', queryString: '' })).toBe(
      '1GET/api/v2/public/time',
    );
    expect(prehash({ timestamp: '1', method: 'POST', requestPath: '/p', queryString: 'a=1', body: '{"x":1}' })).toBe(
      '1POST/p?a=1{"x":1}',
    );
  });

  it('sorts keys, drops undefined values and percent-encodes', () => {
    expect(canonicalQuery({ symbol: 'BTC/USDT', limit: '20', idLessThan: undefined, coin: 'a b' })).toBe(
      'coin=a%20b&limit=20&symbol=BTC%2FUSDT',
    );
    expect(canonicalQuery({})).toBe('');
  });
});
