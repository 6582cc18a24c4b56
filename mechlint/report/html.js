// The HTML report's only script: filters and recounts, sorts the index, opens what a link points into, folds.
// Without it everything is shown, and every count is the whole report's.
(function(){
var form=document.querySelector('.filters');if(!form)return;form.hidden=false;
var status=form.querySelector('.shown-count');
var rows=[].slice.call(document.querySelectorAll('.findings-index tbody tr'));
var items=[].slice.call(document.querySelectorAll('li.finding'));
var LEVELS=['error','warning','note'];
// what each count and each hideable part holds, found once: the filters only read `hidden` afterwards
function within(scope,selector){return [].slice.call(scope.querySelectorAll(selector))}
var files=within(document,'section.file').map(function(s){
 return {node:s,items:within(s,'li.finding'),scenarios:within(s,'.scenario').map(function(c){
  return {node:c,items:within(c,'li.finding')}})}});
var tallies=within(document,'.tally').map(function(t){return {node:t,items:within(t.closest('details, section'),'[data-level]')}});
function any(items){for(var i=0;i<items.length;i++)if(!items[i].hidden)return true;return false}
function plural(n,w){return n+' '+w+(n===1?'':'s')}
function words(c,empty){var out=[];LEVELS.forEach(function(l){if(c[l])out.push(plural(c[l],l))});return out.join(', ')||empty}
function apply(){
 var levels={};form.querySelectorAll('input[name=level]').forEach(function(b){levels[b.value]=b.checked});
 var rule=form.querySelector('select[name=rule]').value;
 var all=!rule&&LEVELS.every(function(l){return levels[l]});
 function ok(e){return levels[e.dataset.level]&&(!rule||e.dataset.rule===rule)}
 items.forEach(function(e){e.hidden=!ok(e)});
 var shown=0,byLevel={error:0,warning:0,note:0},byFamily={},byFile={};
 rows.forEach(function(r){
  var keep=ok(r);r.hidden=!keep;if(!keep)return;shown++;
  byFile[r.dataset.file]=(byFile[r.dataset.file]||0)+1;
  if('suppressed' in r.dataset)return;
  byLevel[r.dataset.level]++;var f=r.dataset.rule.split('/')[0];byFamily[f]=(byFamily[f]||0)+1;});
 files.forEach(function(f){
  f.node.hidden=!all&&!any(f.items);
  if(!f.node.hidden)f.scenarios.forEach(function(c){c.node.hidden=!all&&!any(c.items)});});
 tallies.forEach(function(t){var c={error:0,warning:0,note:0};
  t.items.forEach(function(e){if(!e.hidden)c[e.dataset.level]++});t.node.textContent=words(c,t.node.dataset.empty);});
 document.querySelectorAll('[data-count-level]').forEach(function(e){e.textContent=byLevel[e.dataset.countLevel]});
 document.querySelectorAll('[data-count-family]').forEach(function(e){e.textContent=byFamily[e.dataset.countFamily]||0});
 document.querySelectorAll('[data-count-file]').forEach(function(e){var n=byFile[e.dataset.countFile]||0;e.textContent=n;e.parentNode.hidden=!n});
 var total=document.querySelector('[data-count-all]');if(total)total.textContent=byLevel.error+byLevel.warning+byLevel.note;
 var none=document.querySelector('.none-shown');if(none)none.hidden=shown>0||!rows.length;
 status.textContent=plural(shown,'finding')+' shown'+(all?'':'; files and scenarios without one are hidden');
}
form.addEventListener('change',apply);
form.querySelectorAll('button[data-fold]').forEach(function(b){b.addEventListener('click',function(){
 var open=b.dataset.fold==='open';document.querySelectorAll('details.fold').forEach(function(d){d.open=open});});});
// the index: a button in each column heading sorts by that column (again: the other way)
document.querySelectorAll('.findings-index th[data-sort]').forEach(function(th){
 var button=document.createElement('button');button.type='button';button.className='sort';
 button.textContent=th.textContent;th.textContent='';th.appendChild(button);
 button.addEventListener('click',function(){
  var by=th.dataset.sort,up=th.getAttribute('aria-sort')!=='ascending';
  th.closest('tr').querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort')});
  th.setAttribute('aria-sort',up?'ascending':'descending');
  function key(r){return by==='rank'?[+r.dataset.rank,r.dataset.path,+r.dataset.line]:by==='at'?[r.dataset.path,+r.dataset.line]:
   by==='rule'?[r.dataset.rule,r.dataset.path,+r.dataset.line]:[r.cells[3].textContent]}
  var sorted=rows.slice().sort(function(a,b){var x=key(a),y=key(b);
   for(var i=0;i<x.length;i++){if(x[i]<y[i])return up?-1:1;if(x[i]>y[i])return up?1:-1}return 0});
  if(sorted.length){var body=sorted[0].parentNode;sorted.forEach(function(r){body.appendChild(r)})}});});
// a link into a folded section unfolds it first
function reveal(id){var t=id&&document.getElementById(id);
 for(var d=t?t.closest('details'):null;d;d=d.parentElement.closest('details'))d.open=true;}
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[href^="#"]');
 if(a)reveal(decodeURIComponent(a.getAttribute('href').slice(1)));});
window.addEventListener('hashchange',function(){reveal(decodeURIComponent(location.hash.slice(1)))});
reveal(decodeURIComponent(location.hash.slice(1)));
// play: each scenario shows its frames one at a time for their durations, as a reader sees them; with reduced
// motion asked for, it waits for "Next step" instead. Without the script the storyboard is all there, still.
var still=!!(window.matchMedia&&window.matchMedia('(prefers-reduced-motion: reduce)').matches);
document.querySelectorAll('.scenario').forEach(function(scenario){
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
});
// printing shows everything: every folded section opens first
window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(d){d.open=true})});
apply();
})();
