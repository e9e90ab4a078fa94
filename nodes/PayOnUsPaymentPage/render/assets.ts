/** The page's own CSS and scripts (inline, with the request's CSP nonce; no third-party assets). */


export const CSS = `
:root{--ink:#1b1f24;--muted:#4a525c;--line:#c9ced6;--bg:#f4f6f8;--card:#fff;--accent:#0b5cad;--accent-ink:#fff;--ok:#1d6b36;--err:#a4231b;--focus:#f2a900}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:30rem;margin:0 auto;padding:1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.25rem;margin-top:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 .5rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
p{margin:.5rem 0}
.muted{color:var(--muted)}
.amount{font-size:1.75rem;font-weight:700;margin:.25rem 0 0}
label,legend{display:block;font-weight:600;margin:.875rem 0 .25rem}
.opt{font-weight:400;color:var(--muted)}
input,select{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7480;border-radius:.5rem;background:#fff;color:var(--ink);min-height:2.75rem}
fieldset{border:0;padding:0;margin:0}
.choice{display:flex;gap:.75rem;align-items:flex-start;border:1px solid var(--line);border-radius:.5rem;padding:.75rem;margin:.5rem 0;font-weight:400;cursor:pointer}
.choice input{width:1.25rem;min-height:1.25rem;margin:.15rem 0 0}
.choice b{display:block}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button,.button{display:inline-block;width:100%;margin-top:1.25rem;padding:.75rem 1rem;font:inherit;font-weight:700;border-radius:.5rem;border:2px solid var(--accent);background:var(--accent);color:var(--accent-ink);text-align:center;text-decoration:none;cursor:pointer;min-height:2.75rem}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button[disabled]{opacity:.7;cursor:wait}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{border-left:4px solid var(--err);background:#fdecea;color:var(--err);padding:.75rem;border-radius:.25rem;margin:.75rem 0}
.notice{border-left:4px solid var(--accent);background:#e8f1fb;padding:.75rem;border-radius:.25rem;margin:.75rem 0}
.success{border-left:4px solid var(--ok);background:#e7f4ea;color:var(--ok);padding:.75rem;border-radius:.25rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.375rem 1rem;margin:.75rem 0}
dt{color:var(--muted)}dd{margin:0;font-weight:600;word-break:break-all}
dd.words{word-break:normal;overflow-wrap:break-word;hyphens:none}
.deadline{margin:.75rem 0}
.testonly{border:2px dashed #8a5a00;background:#fff4d6;color:#4d3100;border-radius:.5rem;padding:.75rem;margin-top:1.25rem}.testonly h3{margin:0;font-size:1rem}
.big{font-size:1.375rem;letter-spacing:.05em}
.foot{font-size:.875rem;color:var(--muted);text-align:center;margin:1.5rem 0}
.copy{width:auto;margin:0 0 0 .5rem;padding:.375rem .875rem;font-size:1rem;letter-spacing:normal;vertical-align:middle}
dd.ref,dd time{word-break:normal;overflow-wrap:normal}.nowrap{white-space:nowrap}
.field-error{color:var(--err);font-weight:600;margin:.125rem 0 .25rem}
input[aria-invalid=true]{border:2px solid var(--err)}
.alert ul{margin:.25rem 0 0;padding-left:1.25rem}.alert a{color:var(--err)}
.testmode{background:#fff4d6;border:2px solid #8a5a00;color:#4d3100;text-align:center;padding:.375rem .75rem;border-radius:.5rem;margin:0 0 .75rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (min-width:48rem){main{padding:2rem 1rem}h1{font-size:1.75rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;

/** Shared script: one click per form (double submit guard) and the status poll. */
export const COMMON_JS = `
document.querySelectorAll('form').forEach(function(f){f.addEventListener('submit',function(){if(f.dataset.sent){return}f.dataset.sent='1';var b=f.querySelector('button[type=submit]');if(b){setTimeout(function(){b.disabled=true;b.textContent='Please wait\\u2026'},0)}})});
document.querySelectorAll('time[data-local]').forEach(function(t){try{var d=new Date(t.getAttribute('datetime'));if(isNaN(d.getTime()))return;t.textContent=d.toLocaleString(undefined,{weekday:'short',day:'numeric',month:'short',hour:'2-digit',minute:'2-digit',timeZoneName:'short'})}catch(e){}});
document.querySelectorAll('button[data-copy]').forEach(function(b){var src=document.getElementById(b.getAttribute('data-copy'));if(!src)return;b.hidden=false;var status=document.getElementById('copy-status');var done=function(){if(status)status.textContent='Account number copied.'};var fallback=function(){var r=document.createRange();r.selectNodeContents(src);var sel=window.getSelection();sel.removeAllRanges();sel.addRange(r);try{if(document.execCommand('copy'))done()}catch(e){}};b.addEventListener('click',function(){var text=src.textContent.trim();if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text).then(done,fallback)}else{fallback()}})});
var tl=document.getElementById('time-left');
if(tl){var due=Date.parse(tl.getAttribute('data-until'));var show=function(){var left=Math.max(0,Math.floor((due-Date.now())/1000));tl.textContent=Math.floor(left/60)+':'+('0'+left%60).slice(-2);if(left>0)setTimeout(show,1000)};show()}
var rs=document.getElementById('retry-seconds');
if(rs){var until=Date.parse(rs.getAttribute('data-until'));var cd=function(){var left=Math.max(0,Math.ceil((until-Date.now())/1000));rs.textContent=String(left);if(left>0)setTimeout(cd,1000)};cd()}
var resume=document.querySelector('[data-resume]');
if(resume&&window.history&&history.replaceState&&!/[?&]c=/.test(location.search)){history.replaceState(null,'',resume.getAttribute('data-resume'))}
var poll=document.getElementById('poll');
if(poll&&window.fetch){var url=poll.getAttribute('data-url');var tries=0;var tick=function(){tries++;fetch(url+'&poll=1',{headers:{accept:'application/json'},cache:'no-store'}).then(function(r){if(r.status===429){setTimeout(tick,1000*(+r.headers.get('retry-after')||10));return null}return r.json()}).then(function(s){if(!s)return;if(s.state!=='pending'){location.replace(url);return}setTimeout(tick,tries<40?3000:10000)}).catch(function(){setTimeout(tick,10000)})};setTimeout(tick,3000)}
`;

/** Card script: encrypts PAN|MM|YY|CVV with the page's RSA public key (RSA-OAEP, SHA-256). */
export const CARD_JS = `
(function(){
var form=document.getElementById('card-form');if(!form)return;
var err=document.getElementById('card-error');
var show=function(t){err.textContent=t;err.hidden=!t};
var digits=function(v){return String(v||'').replace(/[\\s-]/g,'')};
var luhn=function(p){var s=0;for(var i=0;i<p.length;i++){var d=+p[p.length-1-i];if(i%2){d*=2;if(d>9)d-=9}s+=d}return s%10===0};
var b64=function(buf){var s='';var a=new Uint8Array(buf);for(var i=0;i<a.length;i++)s+=String.fromCharCode(a[i]);return btoa(s)};
form.hidden=false;var ns=document.getElementById('card-nojs');if(ns)ns.hidden=true;
form.addEventListener('submit',function(e){
 if(form.dataset.ready==='1')return;
 e.preventDefault();e.stopImmediatePropagation();
 var pan=digits(document.getElementById('cc-number').value);
 var exp=String(document.getElementById('cc-exp').value).replace(/\\s/g,'');
 var cvv=digits(document.getElementById('cc-csc').value);
 var m=/^(\\d{1,2})\\/(\\d{2}|\\d{4})$/.exec(exp);
 if(!/^\\d{12,19}$/.test(pan)||!luhn(pan)){show('Check the card number.');document.getElementById('cc-number').focus();return}
 if(!m||+m[1]<1||+m[1]>12){show('Enter the expiry date as MM/YY.');document.getElementById('cc-exp').focus();return}
 if(!/^\\d{3,4}$/.test(cvv)){show('Enter the 3 or 4 digit security code.');document.getElementById('cc-csc').focus();return}
 if(!window.crypto||!crypto.subtle){show('This browser cannot encrypt card details here (the page needs HTTPS). Choose another method.');return}
 show('');var btn=form.querySelector('button[type=submit]');btn.disabled=true;btn.textContent='Please wait\\u2026';
 var pem=document.getElementById('card-key').textContent;
 var der=Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g,'').replace(/\\s+/g,'')),function(c){return c.charCodeAt(0)});
 var mm=('0'+m[1]).slice(-2);var yy=m[2].slice(-2);
 crypto.subtle.importKey('spki',der,{name:'RSA-OAEP',hash:'SHA-256'},false,['encrypt']).then(function(key){
  return crypto.subtle.encrypt({name:'RSA-OAEP'},key,new TextEncoder().encode(pan+'|'+mm+'|'+yy+'|'+cvv));
 }).then(function(ct){
  document.getElementById('cardData').value=b64(ct);
  ['cc-number','cc-exp','cc-csc'].forEach(function(id){document.getElementById(id).value=''});
  form.dataset.ready='1';form.dataset.sent='1';form.submit();
 }).catch(function(){btn.disabled=false;btn.textContent=btn.getAttribute('data-label');show('The card details could not be encrypted. Reload the page and try again.')});
});
})();
`;
