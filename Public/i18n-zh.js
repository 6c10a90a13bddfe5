// The page's texts in Simplified Chinese, by the keys of i18n.js's English ones. A module of its
// own: only the readers who need it fetch it (i18n.js imports it when asked).
export default {
  pull: '下拉可以刷新', release: '松开立即刷新', refreshing: '加载中…',
  updated: '最后更新：{t}', never: '尚未更新', refresh: '刷新',
  n0: '没有新内容', n1: '1 条新内容', nn: '{n} 条新内容', more: '{n}+ 条新内容',
  loading: '加载中…', noMore: '没有更多了', retry: '重试',
  refreshFailed: '刷新失败。', loadFailed: '加载失败。',
  moreFailed: '无法加载更多内容。', empty: '还没有内容',
  emptyHow: '用上面的“发布一条”发布第一条，或在终端里运行：',
  today: '今天', yesterday: '昨天', feed: '最新内容',
  compose: '发布一条', back: '返回列表', notFound: '没有这条内容。', demo: '演示',
  startedOver: '列表已重新开始。',
  edited: '已编辑', deleted: '这条内容已被删除。',
  gapN: '加载 {n} 条较新的内容', gap1: '加载 1 条较新的内容', gapSome: '加载较新的内容', gapTop: '从顶部加载',
  toNewest: '回到最新', expired: '阅读位置已过期：这是最新的内容。',
  inFeed: '在列表中查看',
};
