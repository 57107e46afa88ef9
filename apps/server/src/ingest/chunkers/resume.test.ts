import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { experienceYears } from './resume.js';
import { ctx, doc, text, title } from './test-fixtures.js';

describe('resume', () => {
  it('extracts name, contact, summary, education, work and skills into one chunk with typed fields', () => {
    const d = doc([
      text(
        'Jane Doe\njane.doe@example.com | +1 (555) 123-4567\nSenior software engineer with a focus on search.',
      ),
      title('Education', 1),
      text('Stanford University — M.S. Computer Science, 2012 - 2014\nMIT — B.S. Mathematics, 2008 - 2012'),
      title('Work Experience', 1),
      text('Acme Corp, Staff Engineer, 2018 - 2023\nBeta Inc, Engineer, 2014 - 2017'),
      text('Skills: TypeScript, Go, PostgreSQL; Elasticsearch'),
    ]);
    expect(chunkDocument('resume', d, ctx({}, 'jane.pdf'))).toEqual([
      {
        content_with_weight: [
          'Name: Jane Doe',
          'Email: jane.doe@example.com',
          'Phone: +1 (555) 123-4567',
          'Summary: Senior software engineer with a focus on search.',
          'Education:',
          'Stanford University — M.S. Computer Science, 2012 - 2014',
          'MIT — B.S. Mathematics, 2008 - 2012',
          'Work experience:',
          'Acme Corp, Staff Engineer, 2018 - 2023',
          'Beta Inc, Engineer, 2014 - 2017',
          'Skills: TypeScript, Go, PostgreSQL, Elasticsearch',
        ].join('\n'),
        positions: [],
        fields: {
          name_kwd: 'Jane Doe',
          email_kwd: ['jane.doe@example.com'],
          phone_kwd: ['+1 (555) 123-4567'],
          summary_tks: 'Senior software engineer with a focus on search.',
          education_tks:
            'Stanford University — M.S. Computer Science, 2012 - 2014\nMIT — B.S. Mathematics, 2008 - 2012',
          school_name_tks: 'Stanford University — M.S. Computer Science, 2012 - 2014',
          highest_degree_kwd: 'Master',
          work_tks: 'Acme Corp, Staff Engineer, 2018 - 2023\nBeta Inc, Engineer, 2014 - 2017',
          work_exp_flt: 8,
          skill_kwd: ['TypeScript', 'Go', 'PostgreSQL', 'Elasticsearch'],
        },
      },
    ]);
  });

  it('reads a Chinese CV with labelled fields and never takes date ranges for phone numbers', () => {
    const d = doc([
      text('姓名：张三\n电话：13800138000\n邮箱：zhangsan@example.cn'),
      text('教育经历\n北京大学 计算机科学 本科 2010.09-2014.06'),
      text('工作经历\n某科技公司 工程师 2014.07-2020.12'),
      text('专业技能\nJava、Python、MySQL'),
    ]);
    const [chunk] = chunkDocument('resume', d, ctx({}, 'cv.docx', 'Chinese'));
    expect(chunk.content_with_weight).toBe(
      '姓名：张三\n邮箱：zhangsan@example.cn\n电话：13800138000\n教育经历：\n北京大学 计算机科学 本科 2010.09-2014.06\n' +
        '工作经历：\n某科技公司 工程师 2014.07-2020.12\n技能：Java, Python, MySQL',
    );
    expect(chunk.fields).toMatchObject({
      name_kwd: '张三',
      phone_kwd: ['13800138000'],
      email_kwd: ['zhangsan@example.cn'],
      highest_degree_kwd: 'Bachelor',
      work_exp_flt: 6.4,
      skill_kwd: ['Java', 'Python', 'MySQL'],
    });
  });

  it('sums experience over date ranges', () => {
    expect(experienceYears('Jan 2018 - Jun 2020; 2014 - 2016', 2020)).toBe(4.4);
    expect(experienceYears('2019.03 - present', 2021)).toBe(2.8);
    expect(experienceYears('no dates', 2020)).toBe(0);
  });
});
