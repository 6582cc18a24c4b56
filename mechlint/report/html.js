// The HTML report's only script: filters findings by level and rule, folds every file. Without it all is shown.
(function(){
var form=document.querySelector('.filters');if(!form)return;form.hidden=false;
var status=form.querySelector('.shown-count');
function apply(){
 var levels={};form.querySelectorAll('input[name=level]').forEach(function(b){levels[b.value]=b.checked});
 var rule=form.querySelector('select[name=rule]').value;var shown=0;
 document.querySelectorAll('.finding').forEach(function(f){
  var ok=levels[f.dataset.level]&&(!rule||f.dataset.rule===rule);f.hidden=!ok;if(ok)shown++;});
 status.textContent=shown+' findings shown';
}
form.addEventListener('change',apply);
form.querySelectorAll('button[data-fold]').forEach(function(b){b.addEventListener('click',function(){
 var open=b.dataset.fold==='open';document.querySelectorAll('details.fold').forEach(function(d){d.open=open});});});
apply();
})();
