// The trust page (trust.html). The link to the page over HTTPS carries the fragment this page came
// with (the presenter's #demo=TOKEN, from the start-up QR code), which /trust/open's redirect keeps.
const open = document.getElementById('open');
open.hash = location.hash;
if (location.protocol === 'https:') document.getElementById('trusted').hidden = false;
