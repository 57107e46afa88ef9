import { useState } from 'react';
import { Button, Card, Col, DatePicker, Row, Space, Spin, Statistic, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useChatStats } from '../../../api/chat-api';
import { defaultRange, overviewOf, seriesOf, statsQuery, type StatKey } from '../lib/stats';
import { MiniChart } from './MiniChart';

const CHARTS: Array<{ key: StatKey; label: string; digits: number }> = [
  { key: 'pv', label: 'chat.statMessages', digits: 0 },
  { key: 'uv', label: 'chat.statActiveUsers', digits: 0 },
  { key: 'speed', label: 'chat.statSpeed', digits: 1 },
  { key: 'tokens', label: 'chat.statTokens', digits: 2 },
  { key: 'round', label: 'chat.statRounds', digits: 1 },
  { key: 'thumb_up', label: 'chat.statSatisfaction', digits: 0 },
];

/** Overview (totals) and per-day charts over a date range (default: the last 7 days). */
export function StatsSection() {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultRange());
  const stats = useChatStats(statsQuery(range));
  const overview = overviewOf(stats.data, range);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          onChange={(v) => v && v[0] && v[1] && setRange([v[0].startOf('day'), v[1].endOf('day')])}
          aria-label={t('chat.dateRange')}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void stats.refetch()} loading={stats.isFetching}>
          {t('chat.refresh')}
        </Button>
        <Typography.Text type="secondary">{t('chat.statsScope')}</Typography.Text>
      </Space>
      <section aria-label={t('chat.overview')}>
        <Row gutter={[12, 12]}>
          {(
            [
              ['chat.statMessages', overview.messages, 0],
              ['chat.statActiveUsers', overview.activeUsers, 0],
              ['chat.statSpeed', overview.speed, 1],
              ['chat.statTokens', overview.tokens, 2],
              ['chat.statRounds', overview.rounds, 1],
              ['chat.statSatisfaction', overview.thumbUp, 0],
            ] as const
          ).map(([label, value, precision]) => (
            <Col key={label} xs={12} md={8}>
              <Card size="small">
                <Statistic
                  title={t(label)}
                  value={value}
                  precision={precision}
                  data-testid={`overview-${label.slice(5)}`}
                />
              </Card>
            </Col>
          ))}
        </Row>
      </section>
      {stats.isPending ? (
        <Spin />
      ) : (
        <Row gutter={[16, 24]}>
          {CHARTS.map((c) => (
            <Col key={c.key} xs={24} md={12}>
              <MiniChart title={t(c.label)} points={seriesOf(stats.data, c.key, range)} digits={c.digits} />
            </Col>
          ))}
        </Row>
      )}
    </Space>
  );
}
