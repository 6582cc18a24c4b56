// The HTML report's only script: filters and recounts, sorts the index, opens what a link or a search points into,
// folds. Without it everything is shown, and every count is the whole report's.
// A large report must open fast, so nothing here walks the page at load unless it has to: the index's rows and the
// files are gathered the first time a filter, a sort or a link needs them. The script comes right after the index,
// so that the filters work while the files are still arriving; what needs every file waits for the whole page.
(function(){
var ready=document.readyState!=='loading';
var form=document.querySelector('.filters');if(!form)return;form.hidden=false;
var status=form.querySelector('.shown-count');
var LEVELS=['error','warning','note'],levels={},rule='',all=true;
function within(scope,selector){return [].slice.call(scope.querySelectorAll(selector))}
// the index's rows come in bodies of a hundred, each given the height of the rows it shows while off screen (--rows)
var rows=null,bodies=null,chunk=0;
function index(){if(!rows){rows=within(document,'.findings-index tbody tr');
 bodies=within(document,'.findings-index tbody');chunk=bodies.length?bodies[0].rows.length:0;}return rows}
function counted(t){return {node:t,items:within(t.closest('details, section'),'[data-level]')}}
// each file; a folded one's storyboard is text in a noscript element (`later`) until it is unfolded, so that a large
// report opens fast: until then its counts come from the index's rows, afterwards from its own findings; beside it,
// the words of the storyboard (`words`), hidden until the browser's find-in-page looks for one of them
var files=null,byNumber={};
function fileList(){if(files)return files;
 var found=within(document,'section.file').map(function(s){var h=s.querySelector('h2[id^="file-"]'),n=h?h.id.slice(5):'';
  return byNumber[n]||(byNumber[n]={node:s,n:n,later:s.querySelector('noscript.later'),words:s.querySelector('.words'),
   tallies:within(s,'.tally')})});
 if(ready)files=found;return found}
function parts(f){f.items=within(f.node,'li.finding');f.tallies=f.tallies.map(function(t){return counted(t.node||t)});
 f.scenarios=within(f.node,'.scenario').map(function(c){return {node:c,items:within(c,'li.finding')}});}
var tallies=null;
function pageTallies(){return tallies||(tallies=within(document,'.tally').filter(function(t){
 return !t.closest('section.file')}).map(counted))}
function any(items){for(var i=0;i<items.length;i++)if(!items[i].hidden)return true;return false}
function plural(n,w){return n+' '+w+(n===1?'':'s')}
function words(c,empty){var out=[];LEVELS.forEach(function(l){if(c[l])out.push(plural(c[l],l))});return out.join(', ')||empty}
function write(node,text){if(node.textContent!==text)node.textContent=text}
function hide(node,hidden){if(node.hidden!==hidden)node.hidden=hidden}
function recount(t){var c={error:0,warning:0,note:0};
 t.items.forEach(function(e){if(!e.hidden)c[e.dataset.level]++});write(t.node,words(c,t.node.dataset.empty));}
function ok(e){return levels[e.dataset.level]&&(!rule||e.dataset.rule===rule)}
// a file's own findings, scenarios and counts follow the filters (once its storyboard is in the page)
function refine(f){if(!f.items)parts(f);
 f.items.forEach(function(e){hide(e,!ok(e))});
 f.scenarios.forEach(function(c){hide(c.node,!all&&!any(c.items))});
 f.tallies.forEach(recount);}
// unfolding a file puts its storyboard in the page: parsed from the noscript's text, as it would be without scripts
// (`found`: the paragraph of its words a search landed in, kept above it, see below)
function bring(f,found){if(!f||!f.later)return;
 // while the page is arriving, a noscript may not be whole yet: wait for the page
 if(!ready){document.addEventListener('DOMContentLoaded',function(){bring(fileOf(f.node))});return}
 var t=document.createElement('template');t.innerHTML=f.later.textContent;
 if(found&&f.words){f.later.remove();f.words.after(t.content);
  within(f.words,'p').forEach(function(p){if(p!==found)p.remove()});}
 else{f.later.parentNode.replaceChild(t.content,f.later);if(f.words)f.words.remove();}
 f.later=null;f.words=null;
 if(near)near.unobserve(f.node);
 parts(f);within(f.node,'.scenario').forEach(player);refine(f);}
function read(){form.querySelectorAll('input[name=level]').forEach(function(b){levels[b.value]=b.checked});
 rule=form.querySelector('select[name=rule]').value;all=!rule&&LEVELS.every(function(l){return levels[l]});}
// one pass over the index's rows counts what is shown by level, family, file and body of rows
function apply(){
 read();
 var shown=0,byLevel={error:0,warning:0,note:0},byFamily={},byFile={},byBody=new Map();
 index().forEach(function(r){
  var keep=ok(r);hide(r,!keep);if(!keep)return;shown++;byBody.set(r.parentNode,(byBody.get(r.parentNode)||0)+1);
  var c=byFile[r.dataset.file]||(byFile[r.dataset.file]={error:0,warning:0,note:0,all:0});c[r.dataset.level]++;c.all++;
  if('suppressed' in r.dataset)return;
  byLevel[r.dataset.level]++;var f=r.dataset.rule.split('/')[0];byFamily[f]=(byFamily[f]||0)+1;});
 fileList().forEach(function(f){var c=byFile[f.n];
  hide(f.node,!all&&!c);
  if(f.later)f.tallies.forEach(function(t){write(t,words(c||{},t.dataset.empty))});else refine(f);});
 pageTallies().forEach(recount);
 document.querySelectorAll('[data-count-level]').forEach(function(e){write(e,String(byLevel[e.dataset.countLevel]))});
 document.querySelectorAll('[data-count-family]').forEach(function(e){write(e,String(byFamily[e.dataset.countFamily]||0))});
 document.querySelectorAll('[data-count-file]').forEach(function(e){var c=byFile[e.dataset.countFile],n=c?c.all:0;
  write(e,String(n));hide(e.parentNode,!n)});
 var total=document.querySelector('[data-count-all]');if(total)write(total,String(byLevel.error+byLevel.warning+byLevel.note));
 bodies.forEach(function(b){var n=byBody.get(b)||0;
  hide(b,!n);if(b.style.getPropertyValue('--rows')!==String(n))b.style.setProperty('--rows',String(n));});
 var none=document.querySelector('.none-shown');if(none)hide(none,shown>0||!rows.length);
 write(status,plural(shown,'finding')+' shown'+(all?'':'; files and scenarios without one are hidden'));
}
form.addEventListener('change',apply);
// "Unfold every file" opens every file at once; a storyboard is built when its file comes near the screen, so that
// unfolding two thousand files costs what a screenful does
var near=window.IntersectionObserver?new IntersectionObserver(function(seen){seen.forEach(function(e){
 if(e.isIntersecting)bring(fileOf(e.target))})},{rootMargin:'100% 0px'}):null;
function soon(f){if(!f||!f.later)return;if(near)near.observe(f.node);else bring(f)}
form.querySelectorAll('button[data-fold]').forEach(function(b){b.addEventListener('click',function(){
 var open=b.dataset.fold==='open';if(open)fileList().forEach(soon);
 document.querySelectorAll('details.fold').forEach(function(d){d.open=open});});});
// the index: a button in each column heading sorts by that column (again: the other way)
document.querySelectorAll('.findings-index th[data-sort]').forEach(function(th){
 var button=document.createElement('button');button.type='button';button.className='sort';
 button.textContent=th.textContent;th.textContent='';th.appendChild(button);
 button.addEventListener('click',function(){
  var by=th.dataset.sort,up=th.getAttribute('aria-sort')!=='ascending';
  th.closest('tr').querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort')});
  th.setAttribute('aria-sort',up?'ascending':'descending');
  function path(r){var at=r.cells[1].textContent;return at.slice(0,at.lastIndexOf(':'))}
  function key(r){var line=+r.dataset.line;return by==='rank'?[LEVELS.indexOf(r.dataset.level),path(r),line]:
   by==='at'?[path(r),line]:by==='rule'?[r.dataset.rule,path(r),line]:[r.cells[3].textContent]}
  var keyed=index().map(function(r){return {row:r,key:key(r)}});
  keyed.sort(function(a,b){var x=a.key,y=b.key;
   for(var i=0;i<x.length;i++){if(x[i]<y[i])return up?-1:1;if(x[i]>y[i])return up?1:-1}return 0});
  rows=keyed.map(function(k,i){bodies[Math.floor(i/chunk)].appendChild(k.row);return k.row});apply();});});
// a link into a folded section unfolds it first
function reveal(id){var t=id&&document.getElementById(id),m=!t&&id&&/^finding-(\d+)-/.exec(id);
 if(m){fileList();bring(byNumber[m[1]]);t=document.getElementById(id)}
 for(var d=t?t.closest('details'):null;d;d=d.parentElement.closest('details'))d.open=true;}
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[href^="#"]');
 if(a)reveal(decodeURIComponent(a.getAttribute('href').slice(1)));});
// a folded file's storyboard comes into the page as it opens: at once by its summary, when near the screen otherwise
function fileOf(node){var s=node.closest('section.file'),h=s&&s.querySelector('h2[id^="file-"]');
 return h&&(fileList(),byNumber[h.id.slice(5)])}
document.addEventListener('click',function(e){var s=e.target.closest&&e.target.closest('details.fold > summary');
 if(s)bring(fileOf(s));});
document.addEventListener('toggle',function(e){var d=e.target;
 if(d.open&&d.matches&&d.matches('details.fold'))soon(fileOf(d));},true);
// find-in-page found a word of a folded storyboard: the storyboard is built below the paragraph of words the search
// landed in, which stays, shown, with the browser's mark on the word (its text is not touched, so the browser scrolls
// to it and marks it, as for any match) and a button to the step, or the targets, the words are from
document.addEventListener('beforematch',function(e){var w=e.target,f=w.closest&&w.closest('.words')&&fileOf(w);
 if(!f||!f.later)return;var part=w.dataset.part||'';bring(f,w);
 var fold=f.node.querySelector('details.fold');if(fold)fold.open=true;
 w.classList.add('found');w.insertBefore(document.createTextNode('Found in this storyboard: '),w.firstChild);
 var at=part==='targets'?f.node.querySelector('details.targets'):part?f.node.querySelector('[id="'+part+'"]'):null;
 if(!at)return;
 var go=document.createElement('button');go.type='button';go.textContent=part==='targets'?'Show the targets':'Show the step';
 go.addEventListener('click',function(){if(at.tagName==='DETAILS')at.open=true;at.scrollIntoView({block:'center'})});
 w.appendChild(document.createTextNode(' '));w.appendChild(go);},true);
window.addEventListener('hashchange',function(){reveal(decodeURIComponent(location.hash.slice(1)))});
// play: each scenario shows its frames one at a time for their durations, as a reader sees them; with reduced
// motion asked for, it waits for "Next step" instead. Without the script the storyboard is all there, still.
var still=!!(window.matchMedia&&window.matchMedia('(prefers-reduced-motion: reduce)').matches);
function player(scenario){
 if(scenario.querySelector('.player'))return;
 var frames=[].slice.call(scenario.querySelectorAll('li.frame')),list=scenario.querySelector('ol.frames');
 if(!frames.length||!list)return;
 var bar=document.createElement('div'),play=document.createElement('button'),next=document.createElement('button');
 var say=document.createElement('p');bar.className='player';play.type=next.type='button';
 play.className='play';play.textContent='Play';next.className='next';next.textContent='Next step';next.hidden=true;
 say.className='now-playing';say.setAttribute('role','status');bar.appendChild(play);bar.appendChild(next);
 bar.appendChild(say);list.parentNode.insertBefore(bar,list);
 var at=-1,timer=null;
 function show(i){
  at=i;frames.forEach(function(f,k){f.classList.toggle('off',k!==i)});
  var ms=+frames[i].dataset.duration||0;
  say.textContent='Step '+(i+1)+' of '+frames.length+(ms?' ('+(ms/1000).toFixed(1)+' s)':' (no usable duration)');
  clearTimeout(timer);if(!still)timer=setTimeout(function(){if(i+1<frames.length)show(i+1);else stop(true)},ms||1000);}
 function stop(done){
  clearTimeout(timer);timer=null;at=-1;frames.forEach(function(f){f.classList.remove('off')});
  scenario.classList.remove('playing');play.textContent='Play';next.hidden=true;
  say.textContent=done?'Played all '+frames.length+' steps':'Stopped';}
 play.addEventListener('click',function(){
  if(at>=0){stop(false);return}
  scenario.classList.add('playing');play.textContent='Stop';next.hidden=!still;show(0);});
 next.addEventListener('click',function(){if(at+1<frames.length)show(at+1);else stop(true)});
}
// printing shows everything: every folded section opens first
window.addEventListener('beforeprint',function(){fileList().forEach(bring);
 document.querySelectorAll('details').forEach(function(d){d.open=true})});
// the page is written with every filter off and its counts whole: only a form the browser restored (going back to the
// page) needs a pass over the index now
read();
if(all)write(status,plural(document.querySelectorAll('.findings-index tbody tr').length,'finding')+' shown');else apply();
// once every file is in the page: its players, the place the address points to, and the filters over every file
// (a file met before, while the page was arriving, is met again whole: its section may have been cut short then)
function whole(){ready=true;files=null;byNumber={};within(document,'.scenario').forEach(player);
 reveal(decodeURIComponent(location.hash.slice(1)));read();if(!all)apply();}
if(ready)whole();else document.addEventListener('DOMContentLoaded',whole);
})();
