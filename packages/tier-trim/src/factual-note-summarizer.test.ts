import type { Message } from '@ctxkit/core';
import { corpusDir, corpusMissingMessage, readTrajectory } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { factualNoteSummarizer } from './factual-note-summarizer.ts';

const note = (messages: readonly Message[], maxOutputTokens?: number) =>
  factualNoteSummarizer().summarize({ messages, instructions: '', ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) });

/** The middle of a recorded run: after the system message and the task, before the last 6 messages. */
const middle = (file: string) => {
  const messages = readTrajectory(file);
  const task = messages.findIndex((message) => message.role === 'user');
  return messages.slice(task + 1, -6);
};

describe('factualNoteSummarizer', () => {
  it('is a v1 summarizer plugin with the id factual-note and no window limit', () => {
    const plugin = factualNoteSummarizer();
    expect(plugin).toMatchObject({ specificationVersion: 'v1', kind: 'summarizer', id: 'factual-note' });
    expect(plugin.contextWindow).toBeUndefined();
  });

  it('says so when there is nothing to record', async () => {
    expect(await note([{ role: 'assistant', content: '' }])).toBe('(nothing to record: 1 messages without tool calls, user messages or plans)');
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(factualNoteSummarizer().summarize({ messages: [], instructions: '', signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe.skipIf(!corpusDir())('factualNoteSummarizer on recorded runs', () => {
  if (!corpusDir()) console.log(corpusMissingMessage);

  it('SWE-agent (pydicom): files from create/open/edit, the traceback, the refused edits, the plan', async () => {
    expect(await note(middle('sweagent-pydicom-1458.jsonl'))).toMatchInlineSnapshot(`
      "## User messages
      - "We're currently solving the following issue within our repository. Here's the issue text: ISSUE: Pixel Representation attribute should be optional for pixel data handler **Describe the bug** The NumPy pixel data handler currently [requires the Pixel Representation attribute](https://github.com/pydicom/pydicom/blob/8da0b9b215ebfad5756051c891def88e426787e7/pydicom/pixel_data_handlers/numpy_handler.py#L46). This is problematic, because in case of Float Pixel Data or Double Float Pixel Data the attribute shall be absent. Compare [Floating Point Image Pixel Module Attributes](http://dicom.nema.org/medical/dicom/current/output/chtml/part03/sect_C.7.6.24.html) versus [Image Pixel Description Macro Attributes](http://dicom.nema.org/medical/dicom/current/output/chtml/part03/sect_C.7.6.3.html#table_C.7-11c) **Expected behavior** I would expect the \`Dataset.pixel_array\` property to be able to decode a Float Pixel Data or Double Float Pixel Data element without presence of the Pixel Representation element in the metadata. **Steps To Reproduce** \`\`\`python import numpy as np from pydicom.dataset import Dataset, FileMetaDataset ds = Dataset() ds.file_meta = FileMetaDataset() ds.file_meta.Transfe…"
      ## Files written
      - reproduce_bug.py
      - /pydicom__pydicom/reproduce_bug.py
      ## Files read
      - pydicom/pixel_data_handlers/numpy_handler.py
      ## Commands run
      - \`create reproduce_bug.py\`
      - \`edit 1:1 …\`
      - \`python reproduce_bug.py\`
      - \`find_file "numpy_handler.py"\`
      - \`open pydicom/pixel_data_handlers/numpy_handler.py 293\`
      - \`edit 287:295 …\`
      - \`edit 287:295 …\`
      - \`edit 287:295 …\`
      - \`edit 287:296 …\`
      ## Errors seen
      - \`python reproduce_bug.py\`: "AttributeError: Unable to convert the pixel data as the following required elements are missing from the dataset: PixelRepresentation"
      - \`edit 287:295 …\`: "- E999 SyntaxError: unmatched ']'"
      - \`edit 287:295 …\`: "- E999 SyntaxError: unmatched ')'"
      ## Names seen
      required_elements, PhotometricInterpretation, AttributeError, PixelRepresentation, BitsAllocated, SamplesPerPixel, PixelData, required_elements.append, end_of_edit, pydicom__pydicom, numpy_handler.py, numpy_handler, pixel_data_handlers, pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py, px_keyword, pixel_data, bash-$, re-run, E999, SyntaxError, start/end, FloatPixelData, DoubleFloatPixelData, expected_len, actual_length, ds.PhotometricInterpretation, ds.BitsAllocated, np.zeros, padded_expected_len, YBR_FULL_422, get_expected_length, warnings.warn, ybr_full_length, nr_pixels, np.ndarray, ValueError, 3.5, 8.1.1, 3.3, C.7.6.3, unpack_bits, pixel_dtype, as_float, np.frombuffer, PS3.3, PS3, C.7.6.3.1.2, should_change_PhotometricInterpretation_to_RGB, read_only, arr.copy, pydicom/pixel_data_handlers/numpy_handler.py, reproduce_bug.py, reproduce_bug, pydicom__pydicom/reproduce_bug.py, pydicom__pydicom/pydicom/overlays/numpy_handler.py, pydicom__pydicom/pydicom/waveforms/numpy_handler.py, pixel_array, find_file, pydicom__pydicom/pydicom/dataset.py, dataset.py, np.array_equal, array_equal, ds.pixel_array, _convert_pixel_data_without_handler, convert_pixel_data, _do_pixel_data_conversion, get_pixeldata, __getattr__, object.__getattribute__, __getattribute__, self.convert_pixel_data, self._convert_pixel_data_without_handler, last_exception, self._do_pixel_data_conversion, handler.get_pixeldata, FileMetaDataset, file_meta, ds.Rows, ds.Columns, pydicom.dataset, ds.file_meta, ds.file_meta.TransferSyntaxUID, TransferSyntaxUID, 1.2.840.10008.1.2.1, ds.SamplesPerPixel, MONOCHROME2, np.float32, float32, ds.FloatPixelData, pixel_array.flatten, dicom.nema.org, part03, sect_C, buggy-input.png, buggy-input, NumPy, github.com/pydicom/pydicom/blob/8da0b9b215ebfad5756051c891def88e426787e7/pydicom/pixel_data_handlers/numpy_handler.py, github.com, 8da0b9b215ebfad5756051c891def88e426787e7, L46, dicom.nema.org/medical/dicom/current/output/chtml/part03/sect_C.7.6.24.html, sect_C.7.6.24.html, dicom.nema.org/medical/dicom/current/output/chtml/part03/sect_C.7.6.3.html, sect_C.7.6.3.html, table_C.7-11c, table_C, 7-11c, Dataset.pixel_array, e.g, E.g, script_name, re-implement, scroll_down, inputting/reading, n/a
      ## Last plan
      It seems there was a mistake in the previous edit attempts. I will carefully review the code and ensure the syntax is correct before submitting the edit command again."
    `);
  });

  it('mini-swe-agent (django): sed/cat/python files, exit codes from <returncode>, tracebacks', async () => {
    const text = await note(middle('minisweagent-deepseek-django-13964.jsonl'));
    expect(text).toContain('## Files written\n');
    expect(text).toMatch(/^- django\/db\/models\/fields\/related\.py$/m);
    expect(text).toMatch(/^- django\/db\/models\/base\.py$/m);
    expect(text).toMatch(/^- `cd \/testbed && sed -n '933,942p' django\/db\/models\/base\.py` → exit 0$/m);
    expect(text).toMatch(/→ exit 2$/m);
    expect(text).toContain(`: "django.db.utils.IntegrityError: FOREIGN KEY constraint failed"`);
    // The harness's complaint about the one malformed tool call reached the agent as a user message.
    expect(text).toContain('## User messages\n- "Tool call error: <error> Error parsing tool call arguments');
    expect(text.length).toBeLessThan(12_000);
  });

  it('SWE-agent (CTF): curl commands with the exit status from PROCESS-DONE', async () => {
    const text = await note(middle('sweagent-ctf-i_got_id.jsonl'));
    expect(text).toContain('- `curl http://web.chal.csaw.io:8000/cgi-bin/hello.pl` → exit 0');
    expect(text).toContain('## Files written\n- printenv.pl\n');
  });

  it('tau-bench airline: the customer’s messages and every booking action with its arguments', async () => {
    const text = await note(middle('taubench-airline-task33.jsonl'));
    expect(text).toContain('- "Yes, please cancel the reservation S61CZX. Thank you!"');
    expect(text).toContain('- cancel_reservation {"reservation_id":"S61CZX"}');
    expect(text).toContain('- get_user_details {"user_id":"sophia_silva_7557"}');
    expect(text).not.toContain('## Files');
    expect(text).not.toContain('## Commands run');
  });

  it('keeps less detail for a smaller maxOutputTokens, and is deterministic', async () => {
    const messages = middle('minisweagent-deepseek-astroid-1333.jsonl');
    const full = await note(messages);
    const small = await note(messages, 300);
    expect(small.length).toBeLessThanOrEqual(1_200);
    expect(small.length).toBeLessThan(full.length);
    expect(await note(messages)).toBe(full);
  });
});
