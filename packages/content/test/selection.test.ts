// Which part of a page is chosen and cleaned, one class of mistake at a time: each case is a page
// shape that sites everywhere use, with the text the content must keep and the text it must drop.

import { describe, expect, it } from 'vitest';
import { extractContent } from '../src/index.js';
import { measureTree } from '../src/measure.js';
import { parsePage } from '../src/tree.js';

const PAGE = 'https://town.example/news/library-opens';

function textOf(html: string): string {
  return extractContent(html, { url: PAGE }).text;
}

const LINKS = (count: number, label: string): string =>
  Array.from({ length: count }, (_, i) => `<li><a href="/${label}/${i}">${label} ${i + 1}</a></li>`).join('');

const STORY = [
  'The council opened the new library on Friday, with three floors of books, a reading garden, and a café run by volunteers.',
  'Staff said the building, which cost four million, will open every day of the week, late on Thursdays, and early on Saturdays.',
  'Readers queued from seven in the morning; by noon, the desk had signed up four hundred new members, twice what it expected.',
].join(' ');

describe('selectContent', () => {
  it('reads text that sits in a block without <p>, beside a column of links, over a footer of plain text', () => {
    const html = `<body><div class="row">
      <div class="col-3"><ul>${LINKS(30, 'Archive')}</ul></div>
      <div class="col-9"><p class="title">Library opens</p><small><b>05/10/2018</b> - Posted by: Ada Quill</small><br>
        ${STORY}<br><br><br></div>
    </div>
    <div class="bottom"><div class="row"><div class="col-12">Town Hall - Main Street, 1111 - Riverside - Postal box 421 - Phone: (047) 2106-8000 - open from Monday to Friday, 8:00 to 17:00.</div></div></div></body>`;
    const text = textOf(html);
    expect(text).toContain('The council opened the new library on Friday');
    expect(text).toContain('twice what it expected.');
    expect(text).not.toContain('Town Hall');
    expect(text).not.toContain('Archive 3');
  });

  it('does not climb from the article to take in a block of teasers beside it', () => {
    const teaser = (title: string, excerpt: string): string =>
      `<div class="story-card"><h3><a href="/n/${title.length}">${title}</a></h3><p>${excerpt}</p></div>`;
    const html = `<body><div class="columns">
      <div class="article-body"><h1>Library opens</h1>${STORY.split('; ')
        .map((part) => `<p>${part}</p>`)
        .join('')}</div>
      <div class="more-news"><h2>More from the town</h2>
        ${teaser('Bridge works to finish in May', 'The works on the river bridge, which began in the autumn, will finish in May, the engineers said on Tuesday, ahead of the summer traffic.')}
        ${teaser('School wins robotics prize', 'Pupils of the high school won the regional robotics prize, with a machine that sorts recycling, beating twelve schools from the county.')}
        ${teaser('Market moves to the square', 'The Saturday market moves to the old square next month, with forty stalls, longer hours, and a new stand for local cheese makers.')}
        ${teaser('Swimming pool reopens', 'The swimming pool reopens after repairs to its roof, with new changing rooms, a sauna, and lessons for children on weekday evenings.')}
      </div>
    </div></body>`;
    const text = textOf(html);
    expect(text).toContain('The council opened the new library on Friday');
    expect(text).toContain('twice what it expected.');
    expect(text).not.toContain('robotics prize');
    expect(text).not.toContain('forty stalls');
  });

  it('still gathers the posts of a thread that are alike', () => {
    const post = (id: number, body: string): string =>
      `<div class="post bg${id % 2}" id="p${id}"><div class="author"><a href="/u/${id}">user${id}</a></div><div class="body">${body}</div></div>`;
    const html = `<body><div class="topic">
      ${post(1, 'My tomatoes split on the vine after a week of heavy rain, and the skins cracked around the stem. Is there anything I can do?')}
      ${post(2, 'Water them evenly, a little every day rather than a lot once a week, and the splitting will stop on the next trusses.')}
      ${post(3, 'Thanks, I watered a little every morning for two weeks and the new fruit is whole, smooth, and ripening well.')}
    </div></body>`;
    const text = textOf(html);
    expect(text).toContain('My tomatoes split on the vine');
    expect(text).toContain('Water them evenly');
    expect(text).toContain('the new fruit is whole');
  });

  it('reads the lone <article> beside a longer feed of <article> teasers, and a feed alone as it is', () => {
    const teaser = (words: string): string =>
      `<article class="post"><div class="share"><a href="/s">Share</a></div><p>${words}</p></article>`;
    const feed = `<article class="post"><h3>You may also like</h3>
      ${teaser('Courage is the habit of doing the next right thing, again and again, when nobody is watching and nobody will ever know.')}
      ${teaser('Gratitude lives in small things: the first light, a kind word, a warm cup, and a friend who calls for no reason at all.')}
      ${teaser('A family is a circle of hands, held out to catch whoever falls, and to lift them again, patiently, as often as it takes.')}
      ${teaser('Hope is not a plan, but it keeps us walking long enough to find one, step by step, through the longest and coldest winters.')}
    </article>`;
    const page = `<body><div id="primary"><article class="post single"><h1>Library opens</h1><p>${STORY}</p></article>${feed}</div></body>`;
    const text = textOf(page);
    expect(text).toContain('The council opened the new library on Friday');
    expect(text).not.toContain('Gratitude lives in small things');
    expect(textOf(`<body><div id="primary">${feed}</div></body>`)).toContain('Gratitude lives in small things');
  });

  it('drops a comment section whose comments are <article>s', () => {
    const comment = (words: string): string =>
      `<li class="comment"><article class="comment-body" itemscope itemtype="https://schema.org/Comment"><div class="comment-content"><p>${words}</p></div></article></li>`;
    const html = `<body><div class="site"><div class="entry">
      <h1>Library opens</h1>${STORY.split('; ')
        .map((part) => `<p>${part}</p>`)
        .join('')}
      <div id="comments"><h3>3 thoughts</h3><ol class="comment-list">
        ${comment('What a lovely building, and the garden is a delight on a sunny afternoon, I will be back every week.')}
        ${comment('I signed up on the first day, the staff were friendly, patient, and helped my father find his old favourites.')}
        ${comment('Four million is a lot of money, but the town needed it, and the café is the best in the whole valley.')}
      </ol></div>
    </div></div></body>`;
    const text = textOf(html);
    expect(text).toContain('The council opened the new library on Friday');
    expect(text).not.toContain('What a lovely building');
    expect(text).not.toContain('the café is the best');
  });

  it('drops a list of teaser cards inside the content, and keeps lists whose items are the content', () => {
    const card = (title: string, line: string): string =>
      `<div class="tile"><a href="/d/${title.length}">${title}</a> ${line}</div>`;
    const cards = `<div id="popular"><h2>Most popular</h2>
      ${card('Bean stew', 'A warm stew for the winter, ready in an hour.')}
      ${card('Lentil soup', 'A light soup for weekdays, ready in half an hour.')}
      ${card('Rice pudding', 'A sweet pudding, made with milk and a vanilla pod.')}
      ${card('Apple tart', 'A thin tart of sliced apples on puff pastry.')}</div>`;
    const steps = `<ol>
      <li>Sign up for an account on the <a href="/join">membership page</a>, with your name and address.</li>
      <li>Bring a proof of address to the desk, and <a href="/card">collect your card</a>.</li>
      <li>Borrow up to ten books at a time, for three weeks, and renew them <a href="/renew">online</a>.</li>
    </ol>`;
    const html = `<body><div class="recipe-text"><h1>Library opens</h1><p>${STORY}</p>${steps}${cards}</div></body>`;
    const text = textOf(html);
    expect(text).toContain('The council opened the new library on Friday');
    expect(text).toContain('Bring a proof of address to the desk');
    expect(text).not.toContain('Most popular');
    expect(text).not.toContain('A light soup for weekdays');

    const listicle = `<body><div class="post-content"><p>Good morning! Here is the news you need to know today.</p><ol>
      ${['The library opens on Friday', 'The bridge works finish in May', 'The market moves to the square']
        .map(
          (item, i) =>
            `<li><a href="/s/${i}">${item}</a>, the council says, and more details, with pictures, are in the full story.</li>`,
        )
        .join('')}
    </ol><p>That is all for today: see you tomorrow, with more from the town and around the valley.</p></div></body>`;
    expect(textOf(listicle)).toContain('The bridge works finish in May, the council says');
  });
});

describe('measureTree', () => {
  it('counts the text of nested inline elements once', () => {
    const { root } = parsePage('<div><p>Read <a href="/x"><span><em>the report</em></span></a> today.</p></div>');
    const measures = measureTree(root, () => false);
    const paragraph = [...measures.keys()].find((element) => element.tag === 'p')!;
    expect(measures.get(paragraph)).toMatchObject({ chars: 'Readthereporttoday.'.length, linkChars: 9 });
  });
});
