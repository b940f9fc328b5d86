import { describe, expect, it } from 'vitest';
import { measureRetrieval } from './bench/measure-retrieval.ts';
import { createToolSearch, toolSearchText } from './tool-search.ts';

const mcp = [
  {
    name: 'create_pull_request',
    description: 'Open a new pull request in a GitHub repository.',
    inputSchema: { type: 'object', properties: { head: { type: 'string', description: 'Branch with the changes' } } },
  },
  { name: 'list_issues', description: 'List issues in a repository, filtered by state or label.', inputSchema: { type: 'object' } },
  { name: 'read_file', description: 'Read the contents of a file from disk.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'getWeatherForecast', description: 'Forecast for a city for the next days.', inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } } },
  {
    name: 'send_email',
    description: 'Send an email message to one or more recipients.',
    inputSchema: { type: 'object', properties: { attachmentPaths: { type: 'array', items: { type: 'string', description: 'A spreadsheet or document to attach' } } } },
  },
];

describe('createToolSearch', () => {
  it('finds the tool a request needs, best first, as the very object given', () => {
    const index = createToolSearch(mcp);
    const found = index.search('please open a pull request for my branch');
    expect(found[0]).toBe(mcp[0]);
    expect(index.search('what will the weather be in Oslo', { limit: 1 })).toEqual([mcp[3]]);
  });

  it('matches other forms of a word and words inside camelCase and snake_case names', () => {
    const index = createToolSearch(mcp);
    expect(index.rank('forecasts', { limit: 1 })[0]?.name).toBe('getWeatherForecast');
    expect(index.rank('reading files', { limit: 1 })[0]?.name).toBe('read_file');
  });

  it('finds a tool by a nested parameter description', () => {
    expect(createToolSearch(mcp).rank('attach a spreadsheet', { limit: 1 })[0]?.name).toBe('send_email');
  });

  it('returns tools in their own shape: OpenAI Chat, Responses and Anthropic', () => {
    const openai = { type: 'function', function: { name: 'list_issues', description: 'List issues in a repository.', parameters: { type: 'object' } } };
    const responses = { type: 'function', name: 'read_file', description: 'Read a file from disk.', parameters: { type: 'object' } };
    const anthropic = { name: 'send_email', description: 'Send an email.', input_schema: { type: 'object' } };
    const index = createToolSearch([openai, responses, anthropic, { type: 'web_search_preview' }]);
    expect(index.search('issues', { limit: 1 })).toEqual([openai]);
    expect(index.search('read a file', { limit: 1 })).toEqual([responses]);
    expect(index.search('email', { limit: 1 })).toEqual([anthropic]);
    expect(index.size).toBe(3);
    expect(index.get('send_email')).toBe(anthropic);
    expect(index.get('nope')).toBeUndefined();
  });

  it('honours the limit and returns nothing for a request with no known word', () => {
    const index = createToolSearch(mcp);
    expect(index.search('a repository', { limit: 2 })).toHaveLength(2);
    expect(index.search('zzz qqq')).toEqual([]);
    expect(index.search('')).toEqual([]);
  });

  it('lets a field weight change the ranking', () => {
    const tools = [
      { name: 'archive', description: 'Store the report for later.', inputSchema: { type: 'object' } },
      { name: 'report', description: 'Print a summary.', inputSchema: { type: 'object' } },
    ];
    expect(createToolSearch(tools, { boost: { name: 10 } }).rank('report', { limit: 1 })[0]?.name).toBe('report');
    expect(createToolSearch(tools, { boost: { name: 0.01 } }).rank('report', { limit: 1 })[0]?.name).toBe('archive');
  });

  it('throws a clear error for bad input', () => {
    expect(() => createToolSearch('tools' as never)).toThrow(/createToolSearch takes an array of tools, got string/);
    expect(() => createToolSearch([mcp[0], { nope: true }])).toThrow(/tools\[1\] is not a tool definition/);
    const index = createToolSearch(mcp);
    expect(() => index.search('x', { limit: 0 })).toThrow(/limit must be a whole number of 1 or more, got 0/);
    expect(() => index.search(3 as never)).toThrow(/search takes a query string, got number/);
    expect(() => index.search('x', { limit: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^\[ctxkit:schema\]/) }));
    expect(() => index.search('x', { limit: -1 })).toThrow(expect.objectContaining({ name: 'CtxkitError', code: 'INVALID_ARGUMENT' }));
  });
});

// Decision 0101: a generic request word in both a tool's name and its description must not count twice.
const currencyPool = [
  { name: 'ExchangeTool', description: 'Seamlessly convert currencies with our integrated currency conversion tool.', inputSchema: { type: 'object' } },
  {
    name: 'convert_timezone',
    description: 'Convert a datetime to a different timezone.',
    inputSchema: { type: 'object', properties: { datetime: { type: 'string', description: 'RFC 3339 datetime string to convert.' }, target_timezone: { type: 'string' } } },
    annotations: { title: 'Convert Timezone' },
  },
  { name: 'get_weather', description: 'Current weather and forecast for a city.', inputSchema: { type: 'object' } },
  { name: 'search_flights', description: 'Search flights between two airports on a date.', inputSchema: { type: 'object' } },
  { name: 'translate_text', description: 'Translate text into another language.', inputSchema: { type: 'object' } },
  { name: 'stock_quote', description: 'The latest price of a stock ticker.', inputSchema: { type: 'object' } },
];

describe('createToolSearch scoring (BM25F, decision 0101)', () => {
  it('ranks the tool whose description does the job above one that only says a generic request word in name and description', () => {
    const index = createToolSearch(currencyPool);
    // Summed per-field scoring put convert_timezone first for both: "convert" in its name and title, its
    // description and a parameter, each part scored with its own IDF and added.
    for (const request of ['convert my dollars to another currency', 'What is 100 USD in euros? Convert it with the current currency rate.']) {
      expect(index.rank(request).map((match) => match.name)).toEqual(['ExchangeTool', 'convert_timezone', expect.any(String)]);
    }
  });

  it('still ranks a tool first by a word it holds in both name and description when nothing else matches', () => {
    expect(createToolSearch(currencyPool).rank('Hi there! Can you convert 100 USD to Euros for me please?')[0]?.name).toBe('convert_timezone');
  });

  it('matches words a query word starts with prefixMinLength, below an exact match', () => {
    const tools = [
      { name: 'list_repositories', description: 'List the repositories of a user.', inputSchema: { type: 'object' } },
      { name: 'repo_stats', description: 'Statistics of one repo.', inputSchema: { type: 'object' } },
      { name: 'get_weather', description: 'Weather for a city.', inputSchema: { type: 'object' } },
    ];
    expect(
      createToolSearch(tools)
        .rank('repo')
        .map((match) => match.name),
    ).toEqual(['repo_stats']);
    const prefixed = createToolSearch(tools, { prefixMinLength: 4 }).rank('repo');
    expect(prefixed.map((match) => match.name)).toEqual(['repo_stats', 'list_repositories']);
    expect(prefixed[1]!.score).toBeLessThan(prefixed[0]!.score * 0.5);
    // A query word shorter than prefixMinLength matches whole words only.
    expect(
      createToolSearch(tools, { prefixMinLength: 5 })
        .rank('repo')
        .map((match) => match.name),
    ).toEqual(['repo_stats']);
    expect(
      createToolSearch(tools, { prefixMinLength: 3 })
        .rank('weath')
        .map((match) => match.name),
    ).toEqual(['get_weather']);
  });

  it('drops stop words unless told otherwise, and stems unless told otherwise', () => {
    const tools = [
      { name: 'band_lookup', description: 'Albums of The Who and other bands.', inputSchema: { type: 'object' } },
      { name: 'search_web', description: 'Search the web.', inputSchema: { type: 'object' } },
    ];
    expect(createToolSearch(tools).rank('the who')).toEqual([]);
    expect(createToolSearch(tools, { stopWords: [] }).rank('the who')[0]?.name).toBe('band_lookup');
    expect(createToolSearch(tools, { stopWords: ['web'] }).rank('web')).toEqual([]);
    expect(createToolSearch(tools).rank('searching')[0]?.name).toBe('search_web');
    expect(createToolSearch(tools, { stem: false }).rank('searching')).toEqual([]);
  });

  it('scores a pool whose names and descriptions are all stop words by its parameters, with finite scores', () => {
    // Every tool's name and description terms are empty, so the pool's mean IDF is 0: the generic-word prior must not divide by it.
    const tools = [
      { name: 'do_it', description: 'It does.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'do', description: '', inputSchema: { type: 'object', properties: { path: { type: 'string' }, mode: { type: 'string' } } } },
    ];
    const matches = createToolSearch(tools).rank('path mode');
    expect(matches.map((match) => match.name)).toEqual(['do', 'do_it']);
    for (const { score } of matches) expect(Number.isFinite(score) && score > 0).toBe(true);
  });

  it('ignores a part weighted 0', () => {
    const tools = [
      { name: 'send_email', description: 'Send a message.', inputSchema: { type: 'object', properties: { attachment: { type: 'string', description: 'A spreadsheet to attach' } } } },
      { name: 'open_sheet', description: 'Open a spreadsheet.', inputSchema: { type: 'object' } },
    ];
    expect(
      createToolSearch(tools)
        .rank('spreadsheet')
        .map((match) => match.name),
    ).toEqual(['open_sheet', 'send_email']);
    expect(
      createToolSearch(tools, { boost: { parameters: 0 } })
        .rank('spreadsheet')
        .map((match) => match.name),
    ).toEqual(['open_sheet']);
  });

  it('throws a clear error for a boost or bm25 value that is negative or not finite', () => {
    for (const options of [{ boost: { name: -1 } }, { boost: { parameters: Number.NaN } }, { bm25: { k: Number.POSITIVE_INFINITY } }, { bm25: { b: 1.5 } }, { bm25: { d: -0.5 } }]) {
      expect(() => createToolSearch(mcp, options)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/createToolSearch (boost|bm25)\.\w+ must be a finite number from 0/) }),
      );
    }
  });

  it('reads a boost or bm25 value given as undefined as not given (a JavaScript caller, or a setting left unset)', () => {
    const configured: { name?: number; k?: number } = {};
    const defaults = createToolSearch(mcp).rank('pull request');
    for (const options of [{ boost: { name: configured.name } }, { bm25: { k: configured.k } }]) {
      // Typed as a JavaScript caller writes it: exactOptionalPropertyTypes would refuse the undefined.
      expect(createToolSearch(mcp, options as object).rank('pull request')).toEqual(defaults);
    }
  });

  it('throws a clear error for a prefixMinLength that is not a whole number of 0 or more', () => {
    for (const prefixMinLength of [-1, Number.NaN, 2.5, Number.POSITIVE_INFINITY, '4']) {
      expect(() => createToolSearch(mcp, { prefixMinLength: prefixMinLength as number })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/createToolSearch prefixMinLength must be a whole number of 0 or more, got/) }),
      );
    }
    expect(createToolSearch(mcp, { prefixMinLength: 100 }).rank('pull')[0]?.name).toBe('create_pull_request');
  });

  it('throws a clear error naming the option for options that are not an object, stopWords not words, stem not a boolean (decision 0105)', () => {
    const cases: [unknown, string][] = [
      ['x', 'createToolSearch options must be an object, got the string "x"'],
      [null, 'createToolSearch options must be an object, got null'],
      [{ stopWords: 'the' }, 'createToolSearch stopWords must be an array of words, got the string "the"'],
      [{ stopWords: ['the', 3] }, 'createToolSearch stopWords must be an array of words, got an array holding 3'],
      [{ stem: 'no' }, 'createToolSearch stem must be true or false, got the string "no"'],
    ];
    for (const [options, message] of cases) {
      expect(() => createToolSearch(mcp, options as object)).toThrow(expect.objectContaining({ name: 'CtxkitError', code: 'INVALID_ARGUMENT', message: `[ctxkit:schema] ${message}` }));
    }
    expect(createToolSearch(mcp, { stopWords: [], stem: false }).rank('pull request')[0]?.name).toBe('create_pull_request');
  });
});

// 36 everyday tools, each also naming its neighbour's topic, and one long planning tool that mentions
// every topic without doing any of the jobs: a "hub" (decision 0070).
const topics = (
  'weather forecast city,currency exchange rate,translate text language,stock price ticker,flight booking airline,recipe ingredients cooking,' +
  'movie showtimes cinema,calendar event meeting,email inbox message,image resize picture,pdf document convert,music playlist song,' +
  'news headlines article,package tracking shipment,restaurant reservation table,hotel room booking,fitness workout exercise,dictionary word definition,' +
  'calculator math equation,timezone clock conversion,podcast episode audio,video upload clip,map directions route,bank account balance,' +
  'crypto wallet coin,job listings career,github repository code,sql database query,spreadsheet cells sheet,photo album gallery,' +
  'note taking notebook,todo reminder alarm,password vault secret,domain whois lookup,qr code generator,url shortener link'
)
  .split(',')
  .map((topic) => topic.split(' ') as [string, string, string]);
const everyday = topics.map(([subject, detail, given], position) => ({
  name: `get_${subject}_${detail}`,
  description: `Looks up the ${subject} ${detail} for a given ${given}; see also ${topics[(position + 1) % topics.length]![0]}.`,
  inputSchema: { type: 'object' },
}));
const planner = {
  name: 'plan_subtasks',
  description: `Keeps a list of subtasks for the current request. ${topics.map(([subject, , given]) => `For example, when the user asks about a ${subject} or a ${given}, write the steps down first.`).join(' ')}`,
  inputSchema: { type: 'object' },
};
const requests = topics.map(([subject, detail, given]) => `first list the steps to get the ${subject} ${detail} for my ${given}`);

describe('createToolSearch with a hub tool in the pool', () => {
  it('ranks the tool that does the job above a long tool that mentions every request', () => {
    const index = createToolSearch([planner, ...everyday]);
    const firsts = requests.map((request) => index.rank(request, { limit: 1 })[0]?.name);
    // Two exceptions since BM25F (decision 0101): "… the flight booking for my airline" and "… the qr
    // code for my generator" also match a third topic word of the planner's ("booking", hotel's; "code",
    // github's), and its 36 "first" and "steps" saturate less at `k` 4 than at 2.2; the right tool is
    // second. Every other request finds its tool first (with hubPenalty 0, none does: the test below).
    const exceptions = new Set(['get_flight_booking', 'get_qr_code']);
    expect(firsts).toEqual(everyday.map((tool) => (exceptions.has(tool.name) ? 'plan_subtasks' : tool.name)));
    everyday.forEach((tool, position) => {
      if (exceptions.has(tool.name)) expect(index.rank(requests[position]!, { limit: 2 })[1]?.name).toBe(tool.name);
    });
  });

  it('lets the hub take the first place when hubPenalty is 0', () => {
    const index = createToolSearch([planner, ...everyday], { hubPenalty: 0 });
    const firsts = requests.map((request) => index.rank(request, { limit: 1 })[0]?.name);
    expect(firsts.filter((name) => name === 'plan_subtasks').length).toBeGreaterThan(30);
  });

  it('still finds the hub for its own job, and leaves a pool of fewer than 32 tools as it is', () => {
    expect(createToolSearch([planner, ...everyday]).rank('plan the subtasks', { limit: 1 })[0]?.name).toBe('plan_subtasks');
    const small = [planner, ...everyday.slice(0, 20)];
    for (const request of requests.slice(0, 20)) {
      expect(createToolSearch(small).rank(request)).toEqual(createToolSearch(small, { hubPenalty: 0 }).rank(request));
    }
  });

  it('throws a clear error for a hubPenalty that is not a number of 0 or more', () => {
    for (const hubPenalty of [-1, Number.NaN, Number.POSITIVE_INFINITY, '2']) {
      expect(() => createToolSearch(everyday, { hubPenalty: hubPenalty as number })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/hubPenalty must be a finite number of 0 or more/) }),
      );
    }
  });
});

describe('createToolSearch with a semantic signal', () => {
  // A toy embedder: one dimension per concept, so "hoodie" and "apparel" meet without sharing a word.
  const concepts: Record<string, number> = { hoodie: 0, apparel: 0, shirt: 0, clothing: 0, forecast: 1, rain: 1, weather: 1, email: 2, message: 2 };
  const embed = (text: string) => {
    const vector = [0, 0, 0];
    for (const word of text.toLowerCase().split(/\W+/)) if (word in concepts) vector[concepts[word]!]! += 1;
    return vector.some((value) => value > 0) ? vector : undefined;
  };
  const tools = [
    { name: 'Bohita', description: 'Create apparel with any image you can describe.', inputSchema: { type: 'object' } },
    { name: 'get_weather', description: 'Weather forecast for a city.', inputSchema: { type: 'object' } },
    { name: 'send_email', description: 'Send an email message.', inputSchema: { type: 'object' } },
  ];

  it('finds a tool that shares no word with the request', () => {
    expect(createToolSearch(tools).search('make me a hoodie')).toEqual([]);
    expect(createToolSearch(tools, { semantic: { embed } }).rank('make me a hoodie', { limit: 1 })[0]?.name).toBe('Bohita');
  });

  it('still ranks by words when the request has no vector, and weight 0 turns the signal off', () => {
    const index = createToolSearch(tools, { semantic: { embed } });
    expect(index.rank('city', { limit: 1 })[0]?.name).toBe('get_weather');
    expect(createToolSearch(tools, { semantic: { embed, weight: 0 } }).search('rain tomorrow')).toEqual([]);
    expect(index.search('rain tomorrow', { limit: 1 })).toEqual([tools[1]]);
  });

  it('ignores a vector of the wrong length instead of comparing it', () => {
    const uneven = (text: string) => (text.includes('email') ? [1, 0] : embed(text));
    expect(createToolSearch(tools, { semantic: { embed: uneven } }).rank('hoodie', { limit: 1 })[0]?.name).toBe('Bohita');
  });

  it('throws a clear error for a semantic option without embed or with a negative weight', () => {
    expect(() => createToolSearch(tools, { semantic: {} as never })).toThrow(/semantic needs an embed\(text\) function/);
    expect(() => createToolSearch(tools, { semantic: { embed, weight: -1 } })).toThrow(/semantic\.weight must be 0 or more, got -1/);
    const failing = (text: string) => {
      if (text.includes('Weather')) throw new Error('model not loaded');
      return embed(text);
    };
    expect(() => createToolSearch(tools, { semantic: { embed: failing } })).toThrow(/semantic\.embed threw on tools\[1\]: model not loaded/);
  });
});

describe('toolSearchText', () => {
  it('reads the name, title, description and parameters of any shape', () => {
    expect(toolSearchText({ name: 'a', title: 'Alpha', annotations: { title: 'First' }, description: 'd', inputSchema: { type: 'object', properties: { x: { description: 'ex' } } } })).toEqual({
      name: 'a',
      title: 'Alpha First',
      description: 'd',
      parameters: 'x\nex',
    });
    expect(toolSearchText({ type: 'web_search_preview' })).toBeUndefined();
  });
});

describe('measureRetrieval', () => {
  it('counts top-1, top-k and all-in-top-k hits and lists the misses', () => {
    const index = createToolSearch(mcp);
    const score = measureRetrieval(
      index,
      [
        { query: 'open a pull request', tools: ['create_pull_request'] },
        { query: 'weather in Oslo and email it', tools: ['getWeatherForecast', 'send_email'] },
        { query: 'zzz', tools: ['read_file'] },
      ],
      { k: 5 },
    );
    expect(score).toMatchObject({ queries: 3, k: 5 });
    expect(score.top1).toBeCloseTo(2 / 3);
    expect(score.topK).toBeCloseTo(2 / 3);
    expect(score.allInTopK).toBeCloseTo(2 / 3);
    expect(score.misses).toEqual([{ query: 'zzz', expected: ['read_file'], got: [] }]);
    expect(() => measureRetrieval(index, [{ query: 1 } as never])).toThrow(/queries\[0\] needs \{ query: string, tools: string\[\] \}/);
  });
});
