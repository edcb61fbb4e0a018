// The rules of Schmier on the phone, for when it is offline: the same reading of a hand's
// form (scorekeeper/table/draft.py) and the same scores, dealers and verdicts as the server's
// rules engine (scorekeeper/rules/), at every table it seats (four, five or six, in each
// layout rules_data.js names with its seats). Each part names the RULES.md section it follows;
// tests/browser/test_rules_js.py holds this copy to the engine, game by game. Imported
// by offline.js; imports only the data the engine declares (rules_data.js, made from it).
import { BIDS, CARD_POINTS, DEFAULT_LAYOUT, HOUSE_RULES, LAYOUTS, PASS, SEATED, TARGET }
  from "./rules_data.js";

// A refusal, with the code the server gives (RuleViolation.code).
const refuse = (code, details) => { throw Object.assign(new Error(code), { code }, details); };

// --- RULES.md, "Table", "Tables of four, five and six" and "House rules" --------------
// A table seats as many as some layout seats (4, 5 or 6); its seats are 1 to that many.
const TABLE_SIZES = [...new Set(Object.values(SEATED))];
const checkTable = (seats) =>
  (TABLE_SIZES.includes(seats) ? seats : refuse("table_invalid", { seats }));
function checkSeat(seat, seats) {
  checkTable(seats);
  const seated = Number.isInteger(seat) && seat >= 1 && seat <= seats;
  return seated ? seat : refuse("seat_invalid", { seat });
}
// A seat of a table of `seats` as a form writes it (Latin digits only), else null.
const seatIn = (text, seats) => (/^[1-9]$/.test(text ?? "") && +text <= seats ? +text : null);

// Team letter -> its seats, team A first.
function teamsFor(layout) {
  if (!Object.keys(LAYOUTS).includes(layout)) refuse("teams_invalid");
  return Object.fromEntries(Object.entries(LAYOUTS[layout]).map(([team, s]) => [team, [...s]]));
}

const teamNames = (layout) => Object.keys(teamsFor(layout));
// How many sit at the table the layout seats.
const seatsAt = (layout) => (teamsFor(layout), SEATED[layout]);
const teamOf = (seat, layout) => (checkSeat(seat, seatsAt(layout)),
  teamNames(layout).find((team) => LAYOUTS[layout][team].includes(seat)));
// The next seat clockwise at a table of `seats`: the deal and the bidding move this way
// (6 -> 1 at six, 4 -> 1 at four). The table is never assumed: a seat is one of it.
const leftOf = (seat, seats) => (checkSeat(seat, seats) % seats) + 1;

// The house rules a game starts with; any left out is its default.
function houseRules(given) {
  const rules = { teams: DEFAULT_LAYOUT, target: TARGET.default, ...given };
  teamsFor(rules.teams);
  const { target } = rules;
  if (!Number.isInteger(target) || target < TARGET.low || target > TARGET.high) {
    refuse("target_invalid");
  }
  const house = { ...given?.house };
  for (const [rule, value] of Object.entries(house)) {
    if (!HOUSE_RULES[rule]) refuse("house_rule_unknown", { rule });
    if (!HOUSE_RULES[rule].values.includes(value)) refuse("house_rule_invalid", { rule });
  }
  rules.house = Object.fromEntries(Object.entries(HOUSE_RULES)
    .map(([rule, { default: value }]) => [rule, rule in house ? house[rule] : value]));
  return rules;
}

// --- RULES.md, "Bidding" ---------------------------------------------------------------
// The seats of a table of `seats` in the order they bid: from the dealer's left, the
// dealer last.
const biddingOrder = (dealer, seats) =>
  Array.from({ length: seats }, (_, turn) => ((checkSeat(dealer, seats) + turn) % seats) + 1);

// How a game bids (rules/auction.py's Auction and Bidding): round its table (`seats`, one
// turn each), its bids from the house rule's lowest to 6, and whether the dealer is stuck
// (must bid when everyone before passed).
const TOP_BID = BIDS[BIDS.length - 1];
function biddingOf(rules) {
  const low = rules.house.lowest_bid;
  return { seats: seatsAt(rules.teams),
    bids: Array.from({ length: TOP_BID - low + 1 }, (_, i) => low + i),
    stuck: rules.house.all_pass === "dealer_stuck" };
}

// Persian (۰-۹) and Arabic-Indic (٠-٩) digits read as 0-9 (scorekeeper/text/digits.py).
const READER_DIGITS = "۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩";
const latinDigits = (text) =>
  text.replace(/[۰-۹٠-٩]/g, (digit) => String(READER_DIGITS.indexOf(digit) % 10));
// A field trimmed as the server trims it (its spaces are not quite those of trim()).
const SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f" +
  "\\u205f\\u3000]";
const ENDS = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");
const strip = (text) => text.replace(ENDS, "");

// A call: "pass", or one of the game's bids as a number or a string of digits.
function parseCall(value, bids) {
  if (typeof value === "string") {
    const text = latinDigits(strip(value).toLowerCase());
    if (text === PASS) return PASS;
    if (/^[0-9]+$/.test(text)) value = Number(text);
  }
  if (!bids.includes(value)) refuse("call_invalid");
  return value;
}

const highestBid = (calls) => Math.max(0, ...calls.filter((call) => call !== PASS)) || null;
// Over after the dealer's turn (every one of `seats` has called), or at once when
// someone bids 6.
const finished = (calls, seats) => calls.length === seats || calls.includes(TOP_BID);

// One more call: one turn each, and a bid must be higher than every bid before it; a
// stuck dealer may not pass when everyone before passed.
function addCall(calls, value, bidding) {
  const call = parseCall(value, bidding.bids);
  if (finished(calls, bidding.seats)) refuse("auction_over");
  if (call !== PASS && call <= (highestBid(calls) ?? 0)) refuse("bid_not_higher");
  const dealersTurn = calls.length === bidding.seats - 1;
  if (call === PASS && bidding.stuck && dealersTurn && highestBid(calls) === null) {
    refuse("dealer_must_bid", { bid: bidding.bids[0] });
  }
  return [...calls, call];
}

const auctionOf = (dealer, values, bidding) => (checkSeat(dealer, bidding.seats),
  values.reduce((calls, value) => addCall(calls, value, bidding), []));

// Entered at the table: the winning bid alone, every other seat of `seats` passing.
function quickAuction(dealer, bidder, bid, seats) {
  const calls = biddingOrder(dealer, seats).map((seat) => (seat === bidder ? bid : PASS));
  return bid === TOP_BID ? calls.slice(0, calls.indexOf(bid) + 1) : calls; // nobody calls after a 6
}

// A hand entered from one dealer's left, dealt by another (RULES.md, "Corrections past
// one hand", as rules/auction.py's reseated): every seat keeps its call, in turn from
// the new dealer's left; where that is no longer a legal auction won by the same seat,
// the hand keeps its winning bid, every other seat passing.
function reseated(calls, from, to, bidding) {
  if (from === to) return calls;
  const { seats } = bidding;
  const best = highestBid(calls);
  if (best === null) return Array(seats).fill(PASS); // thrown in: by any dealer
  const before = biddingOrder(from, seats);
  const said = new Map(before.slice(0, calls.length).map((seat, i) => [seat, calls[i]]));
  const bidder = before[calls.indexOf(best)];
  const moved = [];
  for (const seat of biddingOrder(to, seats)) {
    moved.push(said.get(seat) ?? PASS); // after a 6 nobody spoke: they passed
    if (moved[moved.length - 1] === TOP_BID) break;
  }
  try {
    const legal = auctionOf(to, moved, bidding);
    const sameBidder = biddingOrder(to, seats)[legal.indexOf(best)] === bidder;
    if (finished(legal, seats) && sameBidder) return legal;
  } catch (error) {
    if (!error.code) throw error;
  }
  return quickAuction(to, bidder, best, seats);
}

// --- A hand's form as scorekeeper/table/draft.py reads it: "Bidding", as entered ------------
// A turn for each seat of the largest table, a game value for each team of any layout;
// a game reads those its table has.
const TURNS = Array.from({ length: Math.max(...TABLE_SIZES) }, (_, i) => `turn_${i + 1}`);
const TEAM_LETTERS = [...new Set(Object.values(LAYOUTS).flatMap(Object.keys))].sort();
const FIELDS = ["calls", "bid", ...TURNS, "trump", ...CARD_POINTS, "game",
  ...TEAM_LETTERS.map((team) => `value_${team}`), "rest"];
const NOBODY = "none"; // the Game choice when the most game value was tied

// Each field's first value, as the server reads a posted form, with digits read as 0-9.
function formOf(fields) {
  const form = new Map();
  for (const [name, value] of fields) {
    if (FIELDS.includes(name) && !form.has(name)) form.set(name, latinDigits(`${value ?? ""}`));
  }
  return (name) => form.get(name) || "";
}

// `step()`, or `otherwise` with the refusal it made noted in `problems`.
function noting(problems, step, otherwise) {
  try { return step(); } catch (error) {
    if (!error.code) throw error;
    problems.push(error.code);
    return otherwise;
  }
}

// The calls the form gives: a link's `calls` or `bid` (seat-bid), or the turns from the
// dealer's left (one a seat of the table: turns past it are no table's), where a turn
// left open passed once someone bid (or the dealer, whose turn is the last, called).
function readAuction(form, dealer, bidding, problems) {
  const given = strip(form("calls"));
  if (given) return noting(problems, () => auctionOf(dealer, given.split(","), bidding), []);
  const { seats } = bidding;
  const turns = TURNS.slice(0, seats).map((name) => strip(form(name)).toLowerCase());
  if (turns.some(Boolean)) {
    if (form("bid")) problems.push("bid_and_turns");
    const openPassed = turns.some((call) => call && call !== PASS) || Boolean(turns[seats - 1]);
    let calls = [];
    for (const call of turns) {
      if (finished(calls, seats) || (!call && !openPassed)) break; // after a 6, or still to come
      const next = noting(problems, () => addCall(calls, call || PASS, bidding), null);
      if (next === null) break; // the calls before it stay
      calls = next;
    }
    return calls;
  }
  if (form("bid") === "passed") return allPassed(dealer, bidding, problems);
  if (!form("bid")) return [];
  const [seat, bid] = form("bid").split(/-(.*)/s); // at the first dash
  if (seatIn(seat, seats) !== null && bidding.bids.map(String).includes(bid)) {
    return quickAuction(dealer, +seat, +bid, seats);
  }
  problems.push("bid_invalid");
  return [];
}

// "Everyone passed": every seat's pass, unless the dealer is stuck (the passes before
// the dealer's stay, and the refusal is noted).
function allPassed(dealer, bidding, problems) {
  let calls = [];
  while (!finished(calls, bidding.seats)) {
    const next = noting(problems, () => addCall(calls, PASS, bidding), null);
    if (next === null) break;
    calls = next;
  }
  return calls;
}

// The deal a hand's form gives in a game of `rules` (as houseRules gives them), refused
// with the first thing in it that can't be read, else with what is still missing
// ("tally_incomplete", naming them in `missing`).
function readDeal(fields, dealer, rules) {
  const teams = teamNames(rules.teams);
  const bidding = biddingOf(rules);
  const { seats } = bidding;
  checkSeat(dealer, seats);
  const form = formOf(fields);
  const problems = [];
  // The dealer the phone entered it with (dealt_by, as written), if another seat of it.
  const given = fields.find(([name]) => name === "dealt_by")?.[1];
  const enteredBy = seatIn(given, seats) ?? dealer;
  let calls = readAuction(form, enteredBy, bidding, problems);
  if (enteredBy !== dealer) {
    calls = finished(calls, seats) ? reseated(calls, enteredBy, dealer, bidding) : [];
  }
  const played = finished(calls, seats) && highestBid(calls) !== null;
  const trump = played && form("trump") ? form("trump") : null;
  if (trump !== null && !SUITS.includes(trump)) problems.push("trump_invalid");
  const isTeam = (name, also) =>
    teams.includes(name) || name === also || (problems.push("point_not_a_team"), false);
  const cardPoints = {};
  for (const point of CARD_POINTS) {
    if (form(point) && isTeam(form(point))) cardPoints[point] = form(point);
  }
  let game = form("game") && isTeam(form("game"), NOBODY) ? form("game") : null;
  const gameValues = {};
  for (const team of teams) {
    const raw = strip(form(`value_${team}`));
    if (/^[0-9]{1,6}$/.test(raw)) gameValues[team] = Number(raw);
    else if (raw) problems.push("game_value_invalid");
  }
  const counted = Object.keys(gameValues).length > 0;
  const rest = form("rest"); // every point still open goes to this team
  if (rest && isTeam(rest)) {
    for (const point of CARD_POINTS) cardPoints[point] ??= rest;
    if (game === null && !counted) game = rest;
  }
  if (problems.length) refuse(problems[0], { problems });
  if (!finished(calls, seats)) refuse("auction_unfinished");
  if (!played) return { calls, ...NO_TALLY };
  if (trump === null) refuse("trump_missing");
  const missing = CARD_POINTS.filter((point) => !(point in cardPoints));
  if (game === null && !counted) missing.push("game");
  if (missing.length) refuse("tally_incomplete", { missing });
  // Counted values are the more careful answer: when given, they decide Game.
  return { calls, trump, cardPoints, game: counted || game === NOBODY ? null : game,
    gameValues: counted ? gameValues : null };
}

// --- RULES.md, "Cards" and "The six points of a hand" ---------------------------------
const SUITS = ["spades", "hearts", "diamonds", "clubs"];
const GAME_TOTAL = 4 * (4 + 3 + 2 + 1 + 10) + 1; // A, K, Q, J and 10 of each suit, the Joker
const NO_TALLY = { trump: null, cardPoints: null, game: null, gameValues: null };

const checkTeam = (team, teams) => (teams.includes(team) ? team : refuse("point_not_a_team"));

// The team with the most game value, or null when the most is tied.
function decideGame(values, teams) {
  for (const [team, value] of Object.entries(values)) {
    checkTeam(team, teams);
    if (!Number.isInteger(value) || value < 0) refuse("game_value_invalid");
  }
  const counted = Object.values(values);
  if (counted.reduce((sum, value) => sum + value, 0) > GAME_TOTAL) refuse("game_values_over");
  const leaders = teams.filter((team) => (values[team] ?? 0) === Math.max(0, ...counted));
  return leaders.length === 1 ? leaders[0] : null;
}

// Each card point goes to exactly one team of the game; counted values decide Game.
function checkedTally(deal, teams) {
  const given = deal.cardPoints;
  if (Object.keys(given).some((name) => !CARD_POINTS.includes(name))) refuse("point_unknown");
  const cardPoints = {};
  for (const point of CARD_POINTS) {
    if (given[point] == null) refuse("point_unassigned", { point });
    cardPoints[point] = checkTeam(given[point], teams);
  }
  const gameValues = deal.gameValues == null ? null : { ...deal.gameValues };
  let game = deal.game ?? null;
  if (gameValues !== null) {
    const decided = decideGame(gameValues, teams);
    if (game !== null && game !== decided) refuse("game_disagrees");
    game = decided;
  } else if (game !== null) checkTeam(game, teams);
  return { cardPoints, game, gameValues };
}

// --- RULES.md, "Scoring after each hand" ----------------------------------------------
function scoreHand(teams, biddingTeam, bid, tally) {
  const taken = Object.fromEntries(teams.map((team) => [team, 0]));
  for (const team of Object.values(tally.cardPoints)) taken[team] += 1;
  if (tally.game !== null) taken[tally.game] += 1;
  const made = taken[biddingTeam] >= bid;
  const scoreChange = { ...taken };
  if (!made) scoreChange[biddingTeam] = -bid; // set: the points it took are lost
  return { taken, made, scoreChange };
}

// One deal checked and scored. A deal whose `cardPoints` is null has no tally.
function playDeal(rules, dealer, deal) {
  const teams = teamNames(rules.teams);
  const bidding = biddingOf(rules);
  const calls = auctionOf(dealer, deal.calls, bidding);
  if (!finished(calls, bidding.seats)) refuse("auction_unfinished");
  const bid = highestBid(calls);
  if (bid === null) { // thrown in: no trump, no points
    if (deal.trump != null || deal.cardPoints != null) refuse("throw_in_scored");
    return { thrownIn: true, calls, ...NO_TALLY, bidderSeat: null, bid, biddingTeam: null,
      taken: null, made: null, scoreChange: null };
  }
  if (deal.trump == null) refuse("trump_missing");
  if (!SUITS.includes(deal.trump)) refuse("trump_invalid");
  if (deal.cardPoints == null) refuse("tally_missing");
  const tally = checkedTally(deal, teams);
  const bidderSeat = biddingOrder(dealer, bidding.seats)[calls.indexOf(bid)];
  const biddingTeam = teamOf(bidderSeat, rules.teams);
  return { thrownIn: false, calls, trump: deal.trump, ...tally, bidderSeat, bid, biddingTeam,
    ...scoreHand(teams, biddingTeam, bid, tally) };
}

// --- RULES.md, "End of the game" ------------------------------------------------------
// `taken`: the points each team took in the hand (left out, the scores alone decide).
function judge(rules, scores, biddingTeam, made, taken = null) {
  const target = rules.target;
  const verdict = (kind, winner = null, teams = [], score = null) =>
    ({ kind, target, winner, teams, score, biddingTeam });
  // Smudge: a team that took all six points wins at once, whatever the scores.
  const swept = rules.house.smudge && taken
    ? Object.keys(taken).find((team) => taken[team] === CARD_POINTS.length + 1) : undefined;
  if (swept !== undefined) return verdict("all_six", swept, [swept], scores[swept]);
  if (rules.house.bidder_goes_out && made && scores[biddingTeam] >= target) {
    return verdict("bidder_goes_out", biddingTeam, [biddingTeam], scores[biddingTeam]);
  }
  const reached = teamNames(rules.teams).filter((team) => scores[team] >= target);
  if (!reached.length) return verdict("playing");
  if (reached.length === 1) return verdict("reached", reached[0], reached, scores[reached[0]]);
  const best = Math.max(...reached.map((team) => scores[team]));
  const leaders = reached.filter((team) => scores[team] === best);
  if (leaders.length === 1) return verdict("more_points", leaders[0], reached, best);
  // Tied on the most: the bidding team wins if it is one of them, else play another hand.
  if (leaders.includes(biddingTeam)) {
    return verdict("bidder_breaks_tie", biddingTeam, leaders, best);
  }
  return verdict("tie_play_on", null, leaders, best);
}

// --- A whole game, as scorekeeper/rules/game.py plays it ------------------------------
// The game before hand 1.
function start(rules, firstDealer) {
  rules = houseRules(rules);
  const scores = Object.fromEntries(teamNames(rules.teams).map((team) => [team, 0]));
  const verdict = judge(rules, scores, null, false); // "playing": nobody has the target yet
  return { rules, scores, verdict, nextDealer: checkSeat(firstDealer, seatsAt(rules.teams)),
    handsPlayed: 0, number: 1 };
}

// The game after `deals` more, and what each did. The deal passes left after a played
// hand (round the table the game's layout seats); after a throw-in the same dealer deals
// again. A finished game takes no more.
function carryOn(state, deals) {
  const rules = state.rules;
  const seats = seatsAt(rules.teams);
  let { scores, verdict, nextDealer: dealer, handsPlayed, number } = state;
  const results = [];
  for (const deal of deals) {
    let hand;
    try {
      if (verdict.winner != null) refuse("game_over", { winner: verdict.winner });
      hand = playDeal(rules, dealer, deal);
    } catch (error) {
      throw Object.assign(error, { number }); // the number of the hand refused
    }
    if (!hand.thrownIn) {
      handsPlayed += 1;
      const change = hand.scoreChange;
      scores = Object.fromEntries(Object.entries(scores).map(([t, s]) => [t, s + change[t]]));
      verdict = judge(rules, scores, hand.biddingTeam, hand.made, hand.taken);
    }
    results.push({ number, dealerSeat: dealer, ...hand, scoresAfter: { ...scores }, verdict });
    if (!hand.thrownIn) dealer = leftOf(dealer, seats);
    number += 1;
  }
  return { rules, scores, verdict, nextDealer: dealer, handsPlayed, number, results };
}

export {teamsFor, seatsAt, teamOf, leftOf, biddingOrder, readDeal, playDeal, judge, start, carryOn};
