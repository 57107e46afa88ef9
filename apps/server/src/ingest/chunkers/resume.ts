/**
 * resume (API.md §19.7): structured CV fields — name, contact (email/phone), summary, education, work
 * experience, projects, skills — extracted by heuristics into typed `fields`; one chunk per resume
 * whose content lists the fields as "label: value" blocks.
 */
import type { ChunkContext, ChunkDraft, ParsedDocument } from '../types.js';
import { finalizeDrafts, isChinese, isPageFurniture, mergePositions } from './common.js';

type Part = 'summary' | 'education' | 'work' | 'projects' | 'skills' | 'other';

const HEADINGS: Array<[Part, RegExp]> = [
  [
    'education',
    /^(education(al)?( background| history)?|academic (background|qualifications)|教育背景|教育经历|学历)(?![A-Za-z])/i,
  ],
  [
    'work',
    /^(work experience|professional experience|experience|employment( history)?|work history|career history|工作经历|工作经验|实习经历)(?![A-Za-z])/i,
  ],
  ['projects', /^(projects?|project experience|项目经历|项目经验)(?![A-Za-z])/i],
  ['skills', /^(skills|technical skills|core competencies|competencies|专业技能|技能特长|技能)(?![A-Za-z])/i],
  [
    'summary',
    /^(summary|profile|professional summary|objective|about me|个人简介|自我评价|求职意向)(?![A-Za-z])/i,
  ],
  [
    'other',
    /^(certifications?|awards|honou?rs|languages|interests|publications|证书|获奖情况|获奖|语言能力|兴趣爱好)(?![A-Za-z])/i,
  ],
];

const LABELS: Record<string, [string, string]> = {
  name: ['Name', '姓名'],
  email: ['Email', '邮箱'],
  phone: ['Phone', '电话'],
  summary: ['Summary', '简介'],
  education: ['Education', '教育经历'],
  work: ['Work experience', '工作经历'],
  projects: ['Projects', '项目经历'],
  skills: ['Skills', '技能'],
  other: ['Other', '其他'],
};

const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE_RE = /(?:\+?\d[\d\s().-]{6,}\d)/g;
/** Year ranges and dates ("2014 - 2017", "2010.09-2014.06", "2020-01-15") are not phone numbers. */
const DATE_LIKE_RE =
  /^(?:19|20)\d{2}(?:\s*[./-]\s*\d{1,2}){0,2}\s*(?:[-–~]\s*(?:19|20)\d{2}(?:\s*[./-]\s*\d{1,2}){0,2})?$/;
const NAME_LINE_RE = /^\s*(?:name|full name|姓\s*名)\s*[:：]\s*(.+)$/i;
const DEGREES: Array<[string, RegExp]> = [
  ['Doctorate', /\b(ph\.?\s?d|doctor(ate)?|d\.phil)(?![a-z])|博士/i],
  ['Master', /\b(master'?s?|m\.?sc|m\.s\.|mba|m\.?eng|m\.a\.)(?![a-z])|硕士|研究生/i],
  ['Bachelor', /\b(bachelor'?s?|b\.?sc|b\.s\.|b\.a\.|b\.?eng|undergraduate)(?![a-z])|本科|学士/i],
  ['Associate', /\b(associate)(?![a-z])|大专|专科/i],
  ['High school', /\bhigh school(?![a-z])|高中|中专/i],
];
const SCHOOL_RE = /(university|college|institute|school|academy|大学|学院|学校)/i;
const MONTHS = 'jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec';
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const RANGE_RE = new RegExp(
  `(?:(${MONTHS})[a-z]*\\.?\\s+)?((?:19|20)\\d{2})(?:[./年-](\\d{1,2})月?)?\\s*(?:-|–|—|~|to|至)\\s*(?:(?:(${MONTHS})[a-z]*\\.?\\s+)?((?:19|20)\\d{2})(?:[./年-](\\d{1,2})月?)?|(present|now|current|today|至今|现在))`,
  'gi',
);

function monthIndex(name: string | undefined, num: string | undefined): number {
  if (num) return Math.min(12, Math.max(1, Number(num))) - 1;
  if (name) return Math.max(0, MONTH_NAMES.indexOf(name.toLowerCase().slice(0, 3)));
  return 0;
}

/** Years of experience summed over date ranges; "present" means the latest year the CV mentions. */
export function experienceYears(text: string, latestYear: number): number {
  let months = 0;
  for (const m of text.matchAll(RANGE_RE)) {
    const start = Number(m[2]) * 12 + monthIndex(m[1], m[3]);
    const end = m[7] ? latestYear * 12 + 11 : Number(m[5]) * 12 + monthIndex(m[4], m[6]);
    if (end > start) months += end - start;
  }
  return Math.round((months / 12) * 10) / 10;
}

function headingOf(line: string): { part: Part; rest: string } | undefined {
  const t = line.trim().replace(/^[#*•\-\s]+/, '');
  if (t.length > 60) return undefined;
  for (const [part, re] of HEADINGS) {
    const m = re.exec(t);
    if (!m) continue;
    const rest = t.slice(m[0].length).replace(/^\s*[:：]\s*/, '');
    // "Experience in banking since 2010" is a sentence, not a heading.
    if (rest && !/^\s*[:：]/.test(t.slice(m[0].length)) && rest.split(/\s+/).length > 2) return undefined;
    return { part, rest: rest.trim() };
  }
  return undefined;
}

function isNameLike(line: string): boolean {
  const t = line.trim();
  if (!t || /[@\d]/.test(t) || t.length > 40) return false;
  if (/^[\u4e00-\u9fff·]{2,5}$/.test(t)) return true;
  const words = t.split(/\s+/);
  return words.length >= 1 && words.length <= 4 && words.every((w) => /^[\p{Lu}][\p{L}'.-]*$/u.test(w));
}

function uniq(list: string[]): string[] {
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))];
}

export interface ResumeFields {
  name?: string;
  emails: string[];
  phones: string[];
  parts: Record<Part, string[]>;
}

export function extractResume(doc: ParsedDocument): ResumeFields {
  const lines = doc.sections
    .filter((s) => !isPageFurniture(s))
    .flatMap((s) => (s.text ?? '').split(/\r\n|\r|\n/))
    .map((l) => l.trim())
    .filter(Boolean);
  const emails = uniq(lines.flatMap((l) => l.match(EMAIL_RE) ?? []));
  const phones = uniq(
    lines
      .flatMap((l) => l.replace(EMAIL_RE, ' ').match(PHONE_RE) ?? [])
      .filter((p) => {
        const digits = p.replace(/\D/g, '');
        return digits.length >= 7 && digits.length <= 15 && !DATE_LIKE_RE.test(p.trim());
      })
      .map((p) => p.trim()),
  );
  const parts: Record<Part, string[]> = {
    summary: [],
    education: [],
    work: [],
    projects: [],
    skills: [],
    other: [],
  };
  let name: string | undefined;
  let current: Part | undefined;
  for (const line of lines) {
    const named = NAME_LINE_RE.exec(line);
    if (named && !name) {
      name = named[1].trim();
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      current = heading.part;
      if (heading.rest) parts[current].push(heading.rest);
      continue;
    }
    const contactOnly =
      line
        .replace(EMAIL_RE, '')
        .replace(PHONE_RE, '')
        .replace(/[|,;:：·•\s]|email|e-mail|phone|tel|mobile|邮箱|电话|手机/gi, '') === '';
    if (contactOnly) continue;
    if (!current) {
      // Before the first heading: the name, then a profile line or two.
      if (!name && isNameLike(line)) name = line;
      else parts.summary.push(line);
      continue;
    }
    parts[current].push(line);
  }
  if (!name && doc.title && isNameLike(doc.title)) name = doc.title.trim();
  return { name, emails, phones, parts };
}

function splitSkills(lines: string[]): string[] {
  return uniq(lines.flatMap((l) => l.split(/[,，、;；|•·/]/))).filter((s) => s.length <= 40);
}

export function chunkResume(doc: ParsedDocument, ctx: ChunkContext): ChunkDraft[] {
  const r = extractResume(doc);
  const zh = isChinese(ctx) ? 1 : 0;
  const blocks: string[] = [];
  const fields: Record<string, unknown> = {};
  const add = (key: string, value: string, inline = true) => {
    const colon = zh ? '：' : ': ';
    if (value)
      blocks.push(
        inline ? `${LABELS[key][zh]}${colon}${value}` : `${LABELS[key][zh]}${colon.trim()}\n${value}`,
      );
  };
  if (r.name) {
    fields.name_kwd = r.name;
    add('name', r.name);
  }
  if (r.emails.length) {
    fields.email_kwd = r.emails;
    add('email', r.emails.join(', '));
  }
  if (r.phones.length) {
    fields.phone_kwd = r.phones;
    add('phone', r.phones.join(', '));
  }
  const text = (p: Part) => r.parts[p].join('\n');
  if (text('summary')) fields.summary_tks = text('summary');
  add('summary', text('summary'));
  if (text('education')) {
    fields.education_tks = text('education');
    const schools = uniq(r.parts.education.filter((l) => SCHOOL_RE.test(l)));
    if (schools.length) fields.school_name_tks = schools.join('\n');
    const degree = DEGREES.find(([, re]) => re.test(text('education')));
    if (degree) fields.highest_degree_kwd = degree[0];
  }
  add('education', text('education'), false);
  if (text('work')) {
    fields.work_tks = text('work');
    const years = [...text('work').matchAll(/(?:19|20)\d{2}/g)].map((m) => Number(m[0]));
    const exp = experienceYears(text('work'), years.length ? Math.max(...years) : 0);
    if (exp > 0) fields.work_exp_flt = exp;
  }
  add('work', text('work'), false);
  if (text('projects')) fields.project_tks = text('projects');
  add('projects', text('projects'), false);
  const skills = splitSkills(r.parts.skills);
  if (skills.length) fields.skill_kwd = skills;
  add('skills', skills.join(', '));
  add('other', text('other'), false);
  return finalizeDrafts([
    {
      content_with_weight: blocks.join('\n'),
      positions: mergePositions(doc.sections.map((s) => s.positions)),
      fields,
    },
  ]);
}
