#pragma once
// The split rule of binary dissection (Iqbal, Saltz & Bokhari 1986, section 4), shared by
// binary_dissection (a chain) and orb (modules sorted along an axis).

namespace lbb {

// A sequence of weights is to be cut in two, the left part going to processors of total speed
// left_speed and the right part to right_speed. The target left weight T = total * left_speed /
// (left_speed + right_speed) lies between two cut points: one with left weight T - below_gap
// and the next with T + above_gap. True: cut at the lower one.
//
// Each side's shortfall is weighed per unit of speed of the side that receives less; for equal
// halves this is the paper's rule (the cut with the smaller difference between the two sums). For
// unequal processor counts it keeps the paper's bound W_MAX <= W_T/n + w_max (n-1)/n for every
// n: a cut is safe when T - L <= w_max n1/n and L - T <= w_max n2/n, and because
// below_gap + above_gap <= w_max this rule always picks a safe one.
inline bool cut_below_target(double below_gap, double above_gap, double left_speed,
                             double right_speed) {
  return below_gap * right_speed <= above_gap * left_speed;
}

}  // namespace lbb
