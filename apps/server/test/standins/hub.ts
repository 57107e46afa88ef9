import fs from 'node:fs';
import path from 'node:path';
import { sendJson, startStandin, type Standin } from './common.js';

/**
 * A model-hub stand-in serving repository files the way the Hugging Face Hub does:
 * GET /<owner>/<repo>/resolve/<revision>/<file>. `repos` maps a repository id to a local folder.
 */
export function startHubStandin(repos: Record<string, string>): Promise<Standin> {
  return startStandin([
    (c) => {
      const m = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(decodeURIComponent(c.rec.path));
      if (!m || c.rec.method !== 'GET') return false;
      const dir = repos[m[1]];
      const file = dir ? path.join(dir, m[2]) : '';
      if (!dir || !file.startsWith(dir) || !fs.existsSync(file)) {
        sendJson(c.res, 404, { error: 'Entry not found' });
        return true;
      }
      const data = fs.readFileSync(file);
      c.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
      c.res.end(data);
      return true;
    },
  ]);
}
